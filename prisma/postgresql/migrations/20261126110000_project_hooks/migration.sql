-- Project webhooks (GitLab's ProjectHook) share the group hooks' table, renamed to GitLab's name
-- for both, WebHook: a row belongs to a group or to a project, and deleting either deletes its
-- hooks (and, through them, their deliveries and history).
ALTER TABLE "GroupHook" RENAME TO "WebHook";
ALTER SEQUENCE "GroupHook_id_seq" RENAME TO "WebHook_id_seq";
ALTER TABLE "WebHook" RENAME CONSTRAINT "GroupHook_pkey" TO "WebHook_pkey";
ALTER TABLE "WebHook" RENAME CONSTRAINT "GroupHook_groupId_fkey" TO "WebHook_groupId_fkey";
ALTER INDEX "GroupHook_uuid_key" RENAME TO "WebHook_uuid_key";
ALTER INDEX "GroupHook_groupId_idx" RENAME TO "WebHook_groupId_idx";

ALTER TABLE "WebHook" ALTER COLUMN "groupId" DROP NOT NULL;
ALTER TABLE "WebHook" ADD COLUMN "projectId" INTEGER;
ALTER TABLE "WebHook" ADD CONSTRAINT "WebHook_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "WebHook" ADD CONSTRAINT "WebHook_one_owner" CHECK (("groupId" IS NULL) <> ("projectId" IS NULL));
CREATE INDEX "WebHook_projectId_idx" ON "WebHook"("projectId");

-- the hooks that hear an event stay cached under the new name (src/domain/caches.ts)
DROP TRIGGER "CacheVersion_GroupHook" ON "WebHook";
UPDATE "CacheVersion" SET "name" = 'WebHook' WHERE "name" = 'GroupHook';
CREATE TRIGGER "CacheVersion_WebHook" AFTER INSERT OR UPDATE OR DELETE ON "WebHook" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
