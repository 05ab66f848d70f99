-- The milestones a release is associated with (GitLab's milestone_releases).
-- CreateTable
CREATE TABLE "ReleaseMilestone" (
    "releaseId" INTEGER NOT NULL,
    "milestoneId" INTEGER NOT NULL,

    CONSTRAINT "ReleaseMilestone_pkey" PRIMARY KEY ("releaseId","milestoneId")
);

-- CreateIndex
CREATE INDEX "ReleaseMilestone_milestoneId_idx" ON "ReleaseMilestone"("milestoneId");

-- AddForeignKey
ALTER TABLE "ReleaseMilestone" ADD CONSTRAINT "ReleaseMilestone_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReleaseMilestone" ADD CONSTRAINT "ReleaseMilestone_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone"("id") ON DELETE CASCADE ON UPDATE CASCADE;

