-- Mergeability from the real trees: a merge request's merge_status is checked again whenever one
-- of its branches moves; the version tells a check whether what it read is still current.
ALTER TABLE "MergeRequest" ADD COLUMN "mergeStatusVersion" INTEGER NOT NULL DEFAULT 0;
-- what the last check found: the source's head already in the target (has_no_commits?)
ALTER TABLE "MergeRequest" ADD COLUMN "hasNoCommits" BOOLEAN NOT NULL DEFAULT false;

-- statuses stored before were "both branches exist", not a merge tried in git
UPDATE "MergeRequest" SET "mergeStatus" = 'unchecked' WHERE "state" = 'opened';
