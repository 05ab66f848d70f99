// repository rows of the /api/v4 route table: branches, commits, merge base, tags, protected branches
import { del, get, post, type Route } from "../route-helpers.js";

export const repositoryRoutes: Route[] = [
  get("/projects/:id/repository/branches", "projectBranches"),
  post("/projects/:id/repository/branches", "createBranch"),
  get("/projects/:id/repository/branches/:branch", "projectBranch"),
  del("/projects/:id/repository/branches/:branch", "deleteBranch"),
  get("/projects/:id/repository/commits", "projectCommits"),
  post("/projects/:id/repository/commits", "createCommit"),
  get("/projects/:id/repository/commits/:sha", "projectCommit"),
  post("/projects/:id/repository/commits/:sha/cherry_pick", "cherryPickCommit"),
  post("/projects/:id/repository/commits/:sha/revert", "revertCommit"),
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
