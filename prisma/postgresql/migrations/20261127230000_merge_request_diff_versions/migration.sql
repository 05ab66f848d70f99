-- Merge request diff versions (GitLab's MergeRequestDiff): one row per version of a merge request's
-- diff. Merge requests opened before have none: the first read takes one from their current state
-- (the base needs git, which a migration cannot run).
CREATE TABLE "MergeRequestDiff" (
    "id" SERIAL NOT NULL,
    "mergeRequestId" INTEGER NOT NULL,
    "baseCommitSha" TEXT,
    "startCommitSha" TEXT,
    "headCommitSha" TEXT,
    "state" TEXT NOT NULL DEFAULT 'collected',
    "realSize" TEXT,
    "patchIdSha" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "MergeRequestDiff_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "MergeRequestDiff_mergeRequestId_id_idx" ON "MergeRequestDiff"("mergeRequestId", "id");
ALTER TABLE "MergeRequestDiff" ADD CONSTRAINT "MergeRequestDiff_mergeRequestId_fkey" FOREIGN KEY ("mergeRequestId") REFERENCES "MergeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Diff notes: the position of a DiffNote (JSON), as written and as traced after pushes
ALTER TABLE "Note" ADD COLUMN "position" TEXT;
ALTER TABLE "Note" ADD COLUMN "originalPosition" TEXT;
ALTER TABLE "Note" ADD COLUMN "changePosition" TEXT;
ALTER TABLE "Note" ADD COLUMN "lineCode" TEXT;
