// issues rows of the /api/v4 route table
import { del, get, post, put, type Route } from "../route-helpers.js";

export const issueRoutes: Route[] = [
  get("/issues", "issues"),
  get("/projects/:id/issues", "projectIssues"),
  post("/projects/:id/issues", "createIssue"),
  get("/projects/:id/issues/:issue_iid", "projectIssue"),
  put("/projects/:id/issues/:issue_iid", "updateIssue"),
  del("/projects/:id/issues/:issue_iid", "deleteIssue"),
  get("/projects/:id/issues/:issue_iid/participants", "issueParticipants"),
  get("/projects/:id/issues/:issue_iid/closed_by", "issueClosedBy"),
  get("/projects/:id/issues/:issue_iid/related_merge_requests", "issueRelatedMergeRequests"),
];
