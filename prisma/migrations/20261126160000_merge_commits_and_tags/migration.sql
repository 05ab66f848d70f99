-- Merging merge requests: a merge commit has two parents, and a merged merge request remembers
-- its merge commit (and squash commit). Repository tags.
ALTER TABLE "Commit" ADD COLUMN "secondParentSha" TEXT;
ALTER TABLE "MergeRequest" ADD COLUMN "mergeCommitSha" TEXT;
ALTER TABLE "MergeRequest" ADD COLUMN "squashCommitSha" TEXT;

CREATE TABLE "Tag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "targetSha" TEXT NOT NULL,
    "message" TEXT,
    "taggerName" TEXT,
    "taggerEmail" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Tag_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Tag_projectId_name_key" ON "Tag"("projectId", "name");
