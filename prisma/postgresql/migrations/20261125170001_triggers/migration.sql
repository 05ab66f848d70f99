-- What the SQLite migrations add beside the tables, for PostgreSQL:
-- - cache invalidation across processes: every write to a table whose rows the servers cache bumps
--   that table's version in "CacheVersion" (src/db/table-versions.ts) and notifies listeners;
-- - the label name rows of the labels filter, written from the labels column.

CREATE FUNCTION "bump_cache_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = TG_TABLE_NAME;
  PERFORM pg_notify('cache_versions', TG_TABLE_NAME);
  RETURN NULL;
END $$;

INSERT INTO "CacheVersion" ("name") VALUES ('User'), ('AccessToken'), ('Namespace'), ('Project'), ('ProjectMember'), ('GroupMember'), ('RedirectRoute'), ('ProjectApprovalSetting'), ('ApprovalRule'), ('ApprovalRuleUser'), ('ApprovalRuleGroup'), ('ApprovalRuleProtectedBranch'), ('ProtectedBranch'), ('ProtectedBranchAccessLevel'), ('Issue'), ('IssueAssignee'), ('GroupHook');

CREATE TRIGGER "CacheVersion_User" AFTER INSERT OR UPDATE OR DELETE ON "User" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_AccessToken_insert_delete" AFTER INSERT OR DELETE ON "AccessToken" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
-- the last-used time is written on every request and is not cached
CREATE TRIGGER "CacheVersion_AccessToken_update" AFTER UPDATE OF "userId", "name", "description", "digest", "scopes", "kind", "resourceId", "expiresAt", "revoked" ON "AccessToken" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_Namespace" AFTER INSERT OR UPDATE OR DELETE ON "Namespace" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_Project" AFTER INSERT OR UPDATE OR DELETE ON "Project" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ProjectMember" AFTER INSERT OR UPDATE OR DELETE ON "ProjectMember" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_GroupMember" AFTER INSERT OR UPDATE OR DELETE ON "GroupMember" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_RedirectRoute" AFTER INSERT OR UPDATE OR DELETE ON "RedirectRoute" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ProjectApprovalSetting" AFTER INSERT OR UPDATE OR DELETE ON "ProjectApprovalSetting" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ApprovalRule" AFTER INSERT OR UPDATE OR DELETE ON "ApprovalRule" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ApprovalRuleUser" AFTER INSERT OR UPDATE OR DELETE ON "ApprovalRuleUser" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ApprovalRuleGroup" AFTER INSERT OR UPDATE OR DELETE ON "ApprovalRuleGroup" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ApprovalRuleProtectedBranch" AFTER INSERT OR UPDATE OR DELETE ON "ApprovalRuleProtectedBranch" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ProtectedBranch" AFTER INSERT OR UPDATE OR DELETE ON "ProtectedBranch" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_ProtectedBranchAccessLevel" AFTER INSERT OR UPDATE OR DELETE ON "ProtectedBranchAccessLevel" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_Issue" AFTER INSERT OR UPDATE OR DELETE ON "Issue" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_IssueAssignee" AFTER INSERT OR UPDATE OR DELETE ON "IssueAssignee" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
CREATE TRIGGER "CacheVersion_GroupHook" AFTER INSERT OR UPDATE OR DELETE ON "GroupHook" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();

CREATE FUNCTION "write_issue_labels"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "IssueLabel" WHERE "issueId" = NEW."id";
  END IF;
  INSERT INTO "IssueLabel" ("issueId", "name") SELECT DISTINCT NEW."id", "value" FROM jsonb_array_elements_text(NEW."labels"::jsonb);
  RETURN NULL;
END $$;

CREATE FUNCTION "write_merge_request_labels"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "MergeRequestLabel" WHERE "mergeRequestId" = NEW."id";
  END IF;
  INSERT INTO "MergeRequestLabel" ("mergeRequestId", "name") SELECT DISTINCT NEW."id", "value" FROM jsonb_array_elements_text(NEW."labels"::jsonb);
  RETURN NULL;
END $$;

CREATE TRIGGER "IssueLabel_from_insert" AFTER INSERT ON "Issue" FOR EACH ROW EXECUTE FUNCTION "write_issue_labels"();
CREATE TRIGGER "IssueLabel_from_update" AFTER UPDATE OF "labels" ON "Issue" FOR EACH ROW EXECUTE FUNCTION "write_issue_labels"();
CREATE TRIGGER "MergeRequestLabel_from_insert" AFTER INSERT ON "MergeRequest" FOR EACH ROW EXECUTE FUNCTION "write_merge_request_labels"();
CREATE TRIGGER "MergeRequestLabel_from_update" AFTER UPDATE OF "labels" ON "MergeRequest" FOR EACH ROW EXECUTE FUNCTION "write_merge_request_labels"();
