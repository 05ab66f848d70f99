-- Issue and IssueAssignee versions are bumped at commit, not when the write runs. The statement
-- trigger's UPDATE locked the table's one "CacheVersion" row from the write until the transaction
-- committed, so every transaction creating an issue (the issue, then its webhook outbox rows, then
-- COMMIT) waited for the one before it, whatever its project. A deferred constraint trigger runs at
-- COMMIT: the row is locked only while the transaction commits. Constraint triggers are per row; a
-- transaction-local setting bumps each table once per transaction. Other processes see the new
-- version when the write commits, as before; this process knows its own writes from its statements.
CREATE FUNCTION "bump_cache_version_at_commit"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bumped text := 'forgeline.cache_version_bumped_' || lower(TG_TABLE_NAME);
BEGIN
  IF current_setting(bumped, true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config(bumped, 'on', true);
    UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = TG_TABLE_NAME;
    PERFORM pg_notify('cache_versions', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER "CacheVersion_Issue" ON "Issue";
CREATE CONSTRAINT TRIGGER "CacheVersion_Issue" AFTER INSERT OR UPDATE OR DELETE ON "Issue"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version_at_commit"();
DROP TRIGGER "CacheVersion_IssueAssignee" ON "IssueAssignee";
CREATE CONSTRAINT TRIGGER "CacheVersion_IssueAssignee" AFTER INSERT OR UPDATE OR DELETE ON "IssueAssignee"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version_at_commit"();
