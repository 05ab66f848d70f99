// merge requests rows of the /api/v4 route table
import { get, post, put, type Route } from "../route-helpers.js";

export const mergeRequestRoutes: Route[] = [
  get("/merge_requests", "mergeRequests"),
  get("/groups/:id/merge_requests", "groupMergeRequests"),
  get("/projects/:id/merge_requests", "projectMergeRequests"),
  post("/projects/:id/merge_requests", "createMergeRequest"),
  get("/projects/:id/merge_requests/:merge_request_iid", "projectMergeRequest"),
  put("/projects/:id/merge_requests/:merge_request_iid", "updateMergeRequest"),
  ...mergingRoutes("/projects/:id/merge_requests/:merge_request_iid"),
];

/** Merging and reviewing one merge request (rebase answers 202: GitLab rebases in the background). */
function mergingRoutes(mr: string): Route[] {
  return [
    get(`${mr}/commits`, "mergeRequestCommits"),
    get(`${mr}/participants`, "mergeRequestParticipants"),
    get(`${mr}/closes_issues`, "mergeRequestClosesIssues"),
    get(`${mr}/changes`, "mergeRequestChanges"),
    get(`${mr}/diffs`, "mergeRequestDiffs"),
    get(`${mr}/versions`, "mergeRequestVersions"),
    get(`${mr}/versions/:version_id`, "mergeRequestVersion"),
    get(`${mr}/merge_ref`, "mergeRequestMergeRef"),
    put(`${mr}/merge`, "mergeMergeRequest"),
    put(`${mr}/rebase`, "rebaseMergeRequest", { status: 202 }),
  ];
}
