-- Real git repositories: an annotated tag's object id, and the ref updates under way (a crash
-- between git moving refs and the database recording it is repaired from these).
ALTER TABLE "Tag" ADD COLUMN "objectSha" TEXT;

CREATE TABLE "PendingRefUpdate" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "actorId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PendingRefUpdate_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "PendingRefUpdate_projectId_idx" ON "PendingRefUpdate"("projectId");
