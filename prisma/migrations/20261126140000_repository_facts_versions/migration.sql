-- A project's empty_repo and readme_url come from its branches and are cached
-- (src/domain/caches.ts, `repositories`): writes to Branch bump its version, as the tables of
-- 20261124110000_cache_versions do.
INSERT INTO "CacheVersion" ("name") VALUES ('Branch');

CREATE TRIGGER "CacheVersion_Branch_insert" AFTER INSERT ON "Branch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Branch'; END;

CREATE TRIGGER "CacheVersion_Branch_update" AFTER UPDATE ON "Branch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Branch'; END;

CREATE TRIGGER "CacheVersion_Branch_delete" AFTER DELETE ON "Branch"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Branch'; END;
