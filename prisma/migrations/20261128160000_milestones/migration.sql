-- Milestones of projects and groups, the milestone of an issue or a merge request, and the
-- resource milestone events. The issuable tables get their column by ALTER TABLE (not by copying
-- the table, which would drop the triggers that keep IssueLabel and MergeRequestLabel).
-- CreateTable
CREATE TABLE "Milestone" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER,
    "groupId" INTEGER,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" TEXT NOT NULL DEFAULT 'active',
    "startDate" TEXT,
    "dueDate" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Milestone_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Milestone_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ResourceMilestoneEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "issueId" INTEGER,
    "mergeRequestId" INTEGER,
    "milestoneId" INTEGER,
    "action" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ResourceMilestoneEvent_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ResourceMilestoneEvent_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ResourceMilestoneEvent_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- AlterTable
ALTER TABLE "Issue" ADD COLUMN "milestoneId" INTEGER REFERENCES "Milestone" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "MergeRequest" ADD COLUMN "milestoneId" INTEGER REFERENCES "Milestone" ("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "Issue_milestoneId_idx" ON "Issue"("milestoneId");

-- CreateIndex
CREATE INDEX "MergeRequest_milestoneId_idx" ON "MergeRequest"("milestoneId");

-- CreateIndex
CREATE INDEX "Milestone_projectId_title_idx" ON "Milestone"("projectId", "title");

-- CreateIndex
CREATE INDEX "Milestone_groupId_title_idx" ON "Milestone"("groupId", "title");

-- CreateIndex
CREATE UNIQUE INDEX "Milestone_projectId_iid_key" ON "Milestone"("projectId", "iid");

-- CreateIndex
CREATE UNIQUE INDEX "Milestone_groupId_iid_key" ON "Milestone"("groupId", "iid");

-- CreateIndex
CREATE INDEX "ResourceMilestoneEvent_issueId_idx" ON "ResourceMilestoneEvent"("issueId");

-- CreateIndex
CREATE INDEX "ResourceMilestoneEvent_mergeRequestId_idx" ON "ResourceMilestoneEvent"("mergeRequestId");

-- CreateIndex
CREATE INDEX "ResourceMilestoneEvent_milestoneId_idx" ON "ResourceMilestoneEvent"("milestoneId");


-- Milestones are cached by id (src/domain/shared/caches.ts, `milestones`: a page's issues and merge
-- requests show theirs): writes bump the table's version, as the tables of 20261124110000_cache_versions do.
INSERT INTO "CacheVersion" ("name") VALUES ('Milestone');

CREATE TRIGGER "CacheVersion_Milestone_insert" AFTER INSERT ON "Milestone"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Milestone'; END;

CREATE TRIGGER "CacheVersion_Milestone_update" AFTER UPDATE ON "Milestone"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Milestone'; END;

CREATE TRIGGER "CacheVersion_Milestone_delete" AFTER DELETE ON "Milestone"
BEGIN UPDATE "CacheVersion" SET "version" = "version" + 1 WHERE "name" = 'Milestone'; END;
