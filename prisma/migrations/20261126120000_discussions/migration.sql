-- Discussions (threads) of notes as GitLab keeps them: every note has a discussion id of 40 hex
-- digits (a thread's notes share it), GitLab's STI type ("DiscussionNote" for thread notes) and
-- the resolution of thread notes. Each row gets a random id by default: the notes written so far
-- each become a discussion of their own, as individual notes are in GitLab.
-- SQLite cannot add a column with an expression default: the table is rebuilt.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Note" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "noteableType" TEXT NOT NULL,
    "noteableId" INTEGER NOT NULL,
    "authorId" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "discussionId" TEXT NOT NULL DEFAULT (lower(hex(randomblob(20)))),
    "type" TEXT,
    "resolvedAt" DATETIME,
    "resolvedById" INTEGER,
    CONSTRAINT "Note_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Note" ("authorId", "body", "createdAt", "id", "internal", "noteableId", "noteableType", "projectId", "system", "updatedAt")
SELECT "authorId", "body", "createdAt", "id", "internal", "noteableId", "noteableType", "projectId", "system", "updatedAt" FROM "Note";
DROP TABLE "Note";
ALTER TABLE "new_Note" RENAME TO "Note";
CREATE INDEX "Note_noteableType_noteableId_createdAt_idx" ON "Note"("noteableType", "noteableId", "createdAt");
CREATE INDEX "Note_noteableType_noteableId_updatedAt_idx" ON "Note"("noteableType", "noteableId", "updatedAt");
CREATE INDEX "Note_noteableType_noteableId_discussionId_idx" ON "Note"("noteableType", "noteableId", "discussionId");
CREATE INDEX "Note_projectId_idx" ON "Note"("projectId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
