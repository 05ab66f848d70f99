-- Sharing projects and groups with groups (GitLab's project_group_links and group_group_links).
-- The caller's levels are cached with the memberships: writes to the links bump their versions.
-- CreateTable
CREATE TABLE "ProjectGroupLink" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "groupId" INTEGER NOT NULL,
    "groupAccess" INTEGER NOT NULL,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProjectGroupLink_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectGroupLink_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GroupGroupLink" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sharedGroupId" INTEGER NOT NULL,
    "sharedWithGroupId" INTEGER NOT NULL,
    "groupAccess" INTEGER NOT NULL,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "GroupGroupLink_sharedGroupId_fkey" FOREIGN KEY ("sharedGroupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GroupGroupLink_sharedWithGroupId_fkey" FOREIGN KEY ("sharedWithGroupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ProjectGroupLink_groupId_idx" ON "ProjectGroupLink"("groupId");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectGroupLink_projectId_groupId_key" ON "ProjectGroupLink"("projectId", "groupId");

-- CreateIndex
CREATE INDEX "GroupGroupLink_sharedWithGroupId_idx" ON "GroupGroupLink"("sharedWithGroupId");

-- CreateIndex
CREATE UNIQUE INDEX "GroupGroupLink_sharedGroupId_sharedWithGroupId_key" ON "GroupGroupLink"("sharedGroupId", "sharedWithGroupId");

INSERT INTO "CacheVersion" ("name") VALUES ('ProjectGroupLink');

CREATE TRIGGER "CacheVersion_ProjectGroupLink_insert" AFTER INSERT ON "ProjectGroupLink"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectGroupLink'; END;

CREATE TRIGGER "CacheVersion_ProjectGroupLink_update" AFTER UPDATE ON "ProjectGroupLink"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectGroupLink'; END;

CREATE TRIGGER "CacheVersion_ProjectGroupLink_delete" AFTER DELETE ON "ProjectGroupLink"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'ProjectGroupLink'; END;

INSERT INTO "CacheVersion" ("name") VALUES ('GroupGroupLink');

CREATE TRIGGER "CacheVersion_GroupGroupLink_insert" AFTER INSERT ON "GroupGroupLink"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupGroupLink'; END;

CREATE TRIGGER "CacheVersion_GroupGroupLink_update" AFTER UPDATE ON "GroupGroupLink"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupGroupLink'; END;

CREATE TRIGGER "CacheVersion_GroupGroupLink_delete" AFTER DELETE ON "GroupGroupLink"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'GroupGroupLink'; END;
