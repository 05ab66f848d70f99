-- The milestones a release is associated with (GitLab's milestone_releases).
-- CreateTable
CREATE TABLE "ReleaseMilestone" (
    "releaseId" INTEGER NOT NULL,
    "milestoneId" INTEGER NOT NULL,

    PRIMARY KEY ("releaseId", "milestoneId"),
    CONSTRAINT "ReleaseMilestone_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReleaseMilestone_milestoneId_fkey" FOREIGN KEY ("milestoneId") REFERENCES "Milestone" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ReleaseMilestone_milestoneId_idx" ON "ReleaseMilestone"("milestoneId");

