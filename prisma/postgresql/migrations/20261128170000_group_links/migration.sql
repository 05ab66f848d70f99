-- Sharing projects and groups with groups (GitLab's project_group_links and group_group_links).
-- The caller's levels are cached with the memberships: writes to the links bump their versions.
-- CreateTable
CREATE TABLE "ProjectGroupLink" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "groupId" INTEGER NOT NULL,
    "groupAccess" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProjectGroupLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GroupGroupLink" (
    "id" SERIAL NOT NULL,
    "sharedGroupId" INTEGER NOT NULL,
    "sharedWithGroupId" INTEGER NOT NULL,
    "groupAccess" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GroupGroupLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProjectGroupLink_groupId_idx" ON "ProjectGroupLink"("groupId");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectGroupLink_projectId_groupId_key" ON "ProjectGroupLink"("projectId", "groupId");

-- CreateIndex
CREATE INDEX "GroupGroupLink_sharedWithGroupId_idx" ON "GroupGroupLink"("sharedWithGroupId");

-- CreateIndex
CREATE UNIQUE INDEX "GroupGroupLink_sharedGroupId_sharedWithGroupId_key" ON "GroupGroupLink"("sharedGroupId", "sharedWithGroupId");

-- AddForeignKey
ALTER TABLE "ProjectGroupLink" ADD CONSTRAINT "ProjectGroupLink_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectGroupLink" ADD CONSTRAINT "ProjectGroupLink_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupGroupLink" ADD CONSTRAINT "GroupGroupLink_sharedGroupId_fkey" FOREIGN KEY ("sharedGroupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupGroupLink" ADD CONSTRAINT "GroupGroupLink_sharedWithGroupId_fkey" FOREIGN KEY ("sharedWithGroupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "CacheVersion" ("name") VALUES ('ProjectGroupLink');
CREATE TRIGGER "CacheVersion_ProjectGroupLink" AFTER INSERT OR UPDATE OR DELETE ON "ProjectGroupLink" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();

INSERT INTO "CacheVersion" ("name") VALUES ('GroupGroupLink');
CREATE TRIGGER "CacheVersion_GroupGroupLink" AFTER INSERT OR UPDATE OR DELETE ON "GroupGroupLink" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
