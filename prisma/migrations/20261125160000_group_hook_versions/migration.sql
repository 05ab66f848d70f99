-- The group hooks that hear an event are cached (src/domain/caches.ts): writes to GroupHook bump
-- its version, as the tables of 20261124110000_cache_versions do.
INSERT INTO "CacheVersion" ("name") VALUES ('GroupHook');

CREATE TRIGGER "CacheVersion_GroupHook_insert" AFTER INSERT ON "GroupHook"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupHook'; END;

CREATE TRIGGER "CacheVersion_GroupHook_update" AFTER UPDATE ON "GroupHook"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupHook'; END;

CREATE TRIGGER "CacheVersion_GroupHook_delete" AFTER DELETE ON "GroupHook"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupHook'; END;
