-- Releases of tags and their asset links (GitLab's releases and release_links).
-- CreateTable
CREATE TABLE "Release" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,
    "name" TEXT,
    "description" TEXT,
    "sha" TEXT,
    "authorId" INTEGER,
    "releasedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Release_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Release_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReleaseLink" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "releaseId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "filepath" TEXT,
    "linkType" TEXT NOT NULL DEFAULT 'other',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ReleaseLink_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Release_projectId_releasedAt_idx" ON "Release"("projectId", "releasedAt");

-- CreateIndex
CREATE INDEX "Release_projectId_createdAt_idx" ON "Release"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "Release_authorId_idx" ON "Release"("authorId");

-- CreateIndex
CREATE UNIQUE INDEX "Release_projectId_tag_key" ON "Release"("projectId", "tag");

-- CreateIndex
CREATE UNIQUE INDEX "ReleaseLink_releaseId_name_key" ON "ReleaseLink"("releaseId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ReleaseLink_releaseId_url_key" ON "ReleaseLink"("releaseId", "url");

-- CreateIndex
CREATE UNIQUE INDEX "ReleaseLink_releaseId_filepath_key" ON "ReleaseLink"("releaseId", "filepath");

