// repository browsing rows of the /api/v4 route table: tree, archive, compare, commit diffs and refs, contributors
import { get, type Route } from "../route-helpers.js";

export const repositoryBrowseRoutes: Route[] = [
  get("/projects/:id/repository/tree", "projectTree"),
  get("/projects/:id/repository/archive", "projectArchive", { download: true }),
  get("/projects/:id/repository/archive.:format", "projectArchiveWithFormat", { download: true }),
  get("/projects/:id/repository/compare", "projectCompare"),
  get("/projects/:id/repository/commits/:sha/diff", "projectCommitDiff"),
  get("/projects/:id/repository/commits/:sha/refs", "projectCommitRefs"),
  get("/projects/:id/repository/contributors", "projectContributors"),
];
