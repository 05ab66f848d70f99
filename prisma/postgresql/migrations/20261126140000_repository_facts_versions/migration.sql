-- A project's empty_repo and readme_url come from its branches and are cached
-- (src/domain/caches.ts, `repositories`): writes to Branch bump its version (20261125170001_triggers).
INSERT INTO "CacheVersion" ("name") VALUES ('Branch');

CREATE TRIGGER "CacheVersion_Branch" AFTER INSERT OR UPDATE OR DELETE ON "Branch" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
