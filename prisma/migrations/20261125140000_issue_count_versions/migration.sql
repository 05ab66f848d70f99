-- Issue list counts (X-Total, up to 10,001) are cached too (src/domain/caches.ts): writes to the
-- issues and their assignees bump their versions, as the tables of 20261124110000_cache_versions do.
INSERT INTO "CacheVersion" ("name") VALUES ('Issue'), ('IssueAssignee');

CREATE TRIGGER "CacheVersion_Issue_insert" AFTER INSERT ON "Issue"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Issue'; END;

CREATE TRIGGER "CacheVersion_Issue_update" AFTER UPDATE ON "Issue"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Issue'; END;

CREATE TRIGGER "CacheVersion_Issue_delete" AFTER DELETE ON "Issue"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Issue'; END;

CREATE TRIGGER "CacheVersion_IssueAssignee_insert" AFTER INSERT ON "IssueAssignee"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'IssueAssignee'; END;

CREATE TRIGGER "CacheVersion_IssueAssignee_update" AFTER UPDATE ON "IssueAssignee"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'IssueAssignee'; END;

CREATE TRIGGER "CacheVersion_IssueAssignee_delete" AFTER DELETE ON "IssueAssignee"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'IssueAssignee'; END;
