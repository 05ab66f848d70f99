-- Milestones of projects and groups, the milestone of an issue or a merge request, and the
-- resource milestone events.
-- AlterTable
ALTER TABLE "Issue" ADD COLUMN     "milestoneId" INTEGER;

-- AlterTable
ALTER TABLE "MergeRequest" ADD COLUMN     "milestoneId" INTEGER;

-- CreateTable
CREATE TABLE "Milestone" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER,
    "groupId" INTEGER,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" TEXT NOT NULL DEFAULT 'active',
    "startDate" TEXT,
    "dueDate" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Milestone_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ResourceMilestoneEvent" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "issueId" INTEGER,
    "mergeRequestId" INTEGER,
    "milestoneId" INTEGER,
    "action" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ResourceMilestoneEvent_pkey" PRIMARY KEY ("id")
);

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

-- CreateIndex
CREATE INDEX "Issue_milestoneId_idx" ON "Issue"("milestoneId");

-- CreateIndex
CREATE INDEX "MergeRequest_milestoneId_idx" ON "MergeRequest"("milestoneId");

-- AddForeignKey
ALTER TABLE "Issue" ADD CONSTRAINT "Issue_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MergeRequest" ADD CONSTRAINT "MergeRequest_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Milestone" ADD CONSTRAINT "Milestone_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Milestone" ADD CONSTRAINT "Milestone_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResourceMilestoneEvent" ADD CONSTRAINT "ResourceMilestoneEvent_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResourceMilestoneEvent" ADD CONSTRAINT "ResourceMilestoneEvent_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResourceMilestoneEvent" ADD CONSTRAINT "ResourceMilestoneEvent_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Milestones are cached by id (src/domain/shared/caches.ts, `milestones`): writes bump the table's
-- version (20261125170001_triggers).
INSERT INTO "CacheVersion" ("name") VALUES ('Milestone');

CREATE TRIGGER "CacheVersion_Milestone" AFTER INSERT OR UPDATE OR DELETE ON "Milestone" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
