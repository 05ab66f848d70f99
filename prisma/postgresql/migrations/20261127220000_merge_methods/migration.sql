-- Merge methods, squash options, commit message templates and the resolved-discussions rule of
-- a project; what a merge request's last mergeability check found about fast-forwarding.
ALTER TABLE "Project" ADD COLUMN "mergeMethod" TEXT NOT NULL DEFAULT 'merge';
ALTER TABLE "Project" ADD COLUMN "squashOption" TEXT NOT NULL DEFAULT 'default_off';
ALTER TABLE "Project" ADD COLUMN "mergeCommitTemplate" TEXT;
ALTER TABLE "Project" ADD COLUMN "squashCommitTemplate" TEXT;
ALTER TABLE "Project" ADD COLUMN "onlyAllowMergeIfAllDiscussionsAreResolved" BOOLEAN NOT NULL DEFAULT false;
-- why the last rebase failed (GitLab's merge_error), and since when a rebase runs (rebase_in_progress)
ALTER TABLE "MergeRequest" ADD COLUMN "mergeError" TEXT;
ALTER TABLE "MergeRequest" ADD COLUMN "rebaseStartedAt" TIMESTAMP(3);
ALTER TABLE "MergeRequest" ADD COLUMN "divergedFromTarget" BOOLEAN NOT NULL DEFAULT false;

-- open merge requests are checked again, which finds whether each can be fast-forwarded
UPDATE "MergeRequest" SET "mergeStatus" = CASE WHEN "mergeStatus" IN ('cannot_be_merged', 'cannot_be_merged_recheck') THEN 'cannot_be_merged_recheck' ELSE 'unchecked' END, "mergeStatusVersion" = "mergeStatusVersion" + 1 WHERE "state" = 'opened';
