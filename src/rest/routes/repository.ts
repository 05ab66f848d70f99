// repository rows of the /api/v4 route table: branches, commits, merge base, tags, protected branches
import { del, get, post, type OtherAnswer, type Route } from "../route-helpers.js";

/** A cherry-pick's or revert's dry run that would have succeeded (the commits API's `status :ok`). */
const DRY_RUN_SUCCESS: OtherAnswer = {
  status: 200,
  description: "dry_run: the change would apply; nothing was written.",
  schema: { type: "object", properties: { dry_run: { type: "string", enum: ["success"] } }, required: ["dry_run"] },
};

export const repositoryRoutes: Route[] = [
  get("/projects/:id/repository/branches", "projectBranches"),
  post("/projects/:id/repository/branches", "createBranch"),
  get("/projects/:id/repository/branches/:branch", "projectBranch"),
  del("/projects/:id/repository/branches/:branch", "deleteBranch"),
  get("/projects/:id/repository/commits", "projectCommits"),
  post("/projects/:id/repository/commits", "createCommit"),
  get("/projects/:id/repository/commits/:sha", "projectCommit"),
  post("/projects/:id/repository/commits/:sha/cherry_pick", "cherryPickCommit", { otherAnswers: [DRY_RUN_SUCCESS] }),
  post("/projects/:id/repository/commits/:sha/revert", "revertCommit", { otherAnswers: [DRY_RUN_SUCCESS] }),
  get("/projects/:id/repository/commits/:sha/merge_requests", "projectCommitMergeRequests"),
  get("/projects/:id/repository/merge_base", "projectMergeBase"),
  get("/projects/:id/repository/tags", "projectTags"),
  post("/projects/:id/repository/tags", "createTag"),
  get("/projects/:id/repository/tags/:tag_name", "projectTag"),
  del("/projects/:id/repository/tags/:tag_name", "deleteTag"),
  get("/projects/:id/protected_branches", "projectProtectedBranches"),
  post("/projects/:id/protected_branches", "protectBranch"),
  get("/projects/:id/protected_branches/:name", "projectProtectedBranch"),
  del("/projects/:id/protected_branches/:name", "unprotectBranch"),
];
