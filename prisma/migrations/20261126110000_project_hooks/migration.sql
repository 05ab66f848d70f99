-- Project webhooks (GitLab's ProjectHook) share the group hooks' table, renamed to GitLab's name
-- for both, WebHook: a row belongs to a group or to a project, and deleting either deletes its
-- hooks (and, through them, their deliveries and history).
-- First the rename, which SQLite carries into the foreign keys of WebHookDelivery and WebHookLog;
-- then the usual rebuild, as groupId becomes optional.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
DROP TRIGGER "CacheVersion_GroupHook_insert";
DROP TRIGGER "CacheVersion_GroupHook_update";
DROP TRIGGER "CacheVersion_GroupHook_delete";
ALTER TABLE "GroupHook" RENAME TO "WebHook";
CREATE TABLE "new_WebHook" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "uuid" TEXT NOT NULL,
    "groupId" INTEGER,
    "projectId" INTEGER,
    "encryptedUrl" TEXT NOT NULL,
    "encryptedToken" TEXT,
    "encryptedUrlVariables" TEXT,
    "encryptedCustomHeaders" TEXT,
    "name" TEXT,
    "description" TEXT,
    "pushEvents" BOOLEAN NOT NULL DEFAULT true,
    "tagPushEvents" BOOLEAN NOT NULL DEFAULT false,
    "mergeRequestsEvents" BOOLEAN NOT NULL DEFAULT false,
    "repositoryUpdateEvents" BOOLEAN NOT NULL DEFAULT false,
    "issuesEvents" BOOLEAN NOT NULL DEFAULT false,
    "confidentialIssuesEvents" BOOLEAN NOT NULL DEFAULT false,
    "noteEvents" BOOLEAN NOT NULL DEFAULT false,
    "confidentialNoteEvents" BOOLEAN NOT NULL DEFAULT false,
    "pipelineEvents" BOOLEAN NOT NULL DEFAULT false,
    "wikiPageEvents" BOOLEAN NOT NULL DEFAULT false,
    "jobEvents" BOOLEAN NOT NULL DEFAULT false,
    "deploymentEvents" BOOLEAN NOT NULL DEFAULT false,
    "featureFlagEvents" BOOLEAN NOT NULL DEFAULT false,
    "releasesEvents" BOOLEAN NOT NULL DEFAULT false,
    "milestoneEvents" BOOLEAN NOT NULL DEFAULT false,
    "subgroupEvents" BOOLEAN NOT NULL DEFAULT false,
    "emojiEvents" BOOLEAN NOT NULL DEFAULT false,
    "resourceAccessTokenEvents" BOOLEAN NOT NULL DEFAULT false,
    "memberEvents" BOOLEAN NOT NULL DEFAULT false,
    "vulnerabilityEvents" BOOLEAN NOT NULL DEFAULT false,
    "projectEvents" BOOLEAN NOT NULL DEFAULT false,
    "pushEventsBranchFilter" TEXT,
    "branchFilterStrategy" TEXT NOT NULL DEFAULT 'wildcard',
    "enableSslVerification" BOOLEAN NOT NULL DEFAULT true,
    "customWebhookTemplate" TEXT,
    "serviceAccessTokensExpirationEnforced" BOOLEAN NOT NULL DEFAULT true,
    "recentFailures" INTEGER NOT NULL DEFAULT 0,
    "disabledUntil" DATETIME,
    "lockVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WebHook_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebHook_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebHook_one_owner" CHECK (("groupId" IS NULL) <> ("projectId" IS NULL))
);
INSERT INTO "new_WebHook" ("id", "uuid", "groupId", "encryptedUrl", "encryptedToken", "encryptedUrlVariables", "encryptedCustomHeaders", "name", "description", "pushEvents", "tagPushEvents", "mergeRequestsEvents", "repositoryUpdateEvents", "issuesEvents", "confidentialIssuesEvents", "noteEvents", "confidentialNoteEvents", "pipelineEvents", "wikiPageEvents", "jobEvents", "deploymentEvents", "featureFlagEvents", "releasesEvents", "milestoneEvents", "subgroupEvents", "emojiEvents", "resourceAccessTokenEvents", "memberEvents", "vulnerabilityEvents", "projectEvents", "pushEventsBranchFilter", "branchFilterStrategy", "enableSslVerification", "customWebhookTemplate", "serviceAccessTokensExpirationEnforced", "recentFailures", "disabledUntil", "lockVersion", "createdAt", "updatedAt")
SELECT "id", "uuid", "groupId", "encryptedUrl", "encryptedToken", "encryptedUrlVariables", "encryptedCustomHeaders", "name", "description", "pushEvents", "tagPushEvents", "mergeRequestsEvents", "repositoryUpdateEvents", "issuesEvents", "confidentialIssuesEvents", "noteEvents", "confidentialNoteEvents", "pipelineEvents", "wikiPageEvents", "jobEvents", "deploymentEvents", "featureFlagEvents", "releasesEvents", "milestoneEvents", "subgroupEvents", "emojiEvents", "resourceAccessTokenEvents", "memberEvents", "vulnerabilityEvents", "projectEvents", "pushEventsBranchFilter", "branchFilterStrategy", "enableSslVerification", "customWebhookTemplate", "serviceAccessTokensExpirationEnforced", "recentFailures", "disabledUntil", "lockVersion", "createdAt", "updatedAt" FROM "WebHook";
DROP TABLE "WebHook";
ALTER TABLE "new_WebHook" RENAME TO "WebHook";
CREATE UNIQUE INDEX "WebHook_uuid_key" ON "WebHook"("uuid");
CREATE INDEX "WebHook_groupId_idx" ON "WebHook"("groupId");
CREATE INDEX "WebHook_projectId_idx" ON "WebHook"("projectId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- the hooks that hear an event stay cached under the new name (src/domain/caches.ts)
UPDATE "CacheVersion" SET "name" = 'WebHook' WHERE "name" = 'GroupHook';
CREATE TRIGGER "CacheVersion_WebHook_insert" AFTER INSERT ON "WebHook"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'WebHook'; END;

CREATE TRIGGER "CacheVersion_WebHook_update" AFTER UPDATE ON "WebHook"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'WebHook'; END;

CREATE TRIGGER "CacheVersion_WebHook_delete" AFTER DELETE ON "WebHook"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'WebHook'; END;
