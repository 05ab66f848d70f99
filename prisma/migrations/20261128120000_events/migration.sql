-- CreateTable
CREATE TABLE "Event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "authorId" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "pushAction" TEXT,
    "pushRefType" TEXT,
    "pushCommitCount" INTEGER,
    "pushCommitFrom" TEXT,
    "pushCommitTo" TEXT,
    "pushRef" TEXT,
    "pushCommitTitle" TEXT,
    "pushRefCount" INTEGER,
    CONSTRAINT "Event_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Event_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Event_authorId_id_idx" ON "Event"("authorId", "id");

-- CreateIndex
CREATE INDEX "Event_projectId_id_idx" ON "Event"("projectId", "id");

-- CreateIndex
CREATE INDEX "Event_targetType_targetId_idx" ON "Event"("targetType", "targetId");

