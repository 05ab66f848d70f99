// Merge request approvals rows of the /api/v4 route table: group rules (experimental), project
// configuration and rules, and the merge request level. Every approval endpoint needs a token.
// reset_approvals answers 202 (with a JSON body: python-gitlab parses every PUT answer).
import { del, get, post, put, type Route } from "../route-helpers.js";

const mr = "/projects/:id/merge_requests/:merge_request_iid";

export const approvalRoutes: Route[] = [
  get("/groups/:id/approval_rules", "groupApprovalRules"),
  post("/groups/:id/approval_rules", "createGroupApprovalRule"),
  put("/groups/:id/approval_rules/:approval_rule_id", "updateGroupApprovalRule"),
  get("/projects/:id/approvals", "projectApprovalSettings"),
  post("/projects/:id/approvals", "updateProjectApprovalSettings"),
  get("/projects/:id/approval_rules", "projectApprovalRules"),
  post("/projects/:id/approval_rules", "createProjectApprovalRule"),
  get("/projects/:id/approval_rules/:approval_rule_id", "projectApprovalRule"),
  put("/projects/:id/approval_rules/:approval_rule_id", "updateProjectApprovalRule"),
  del("/projects/:id/approval_rules/:approval_rule_id", "deleteProjectApprovalRule"),
  get(`${mr}/approvals`, "mergeRequestApprovals"),
  get(`${mr}/approval_state`, "mergeRequestApprovalState"),
  get(`${mr}/approval_rules`, "mergeRequestApprovalRules"),
  post(`${mr}/approval_rules`, "createMergeRequestApprovalRule"),
  get(`${mr}/approval_rules/:approval_rule_id`, "mergeRequestApprovalRule"),
  put(`${mr}/approval_rules/:approval_rule_id`, "updateMergeRequestApprovalRule"),
  del(`${mr}/approval_rules/:approval_rule_id`, "deleteMergeRequestApprovalRule"),
  post(`${mr}/approve`, "approveMergeRequest"),
  post(`${mr}/unapprove`, "unapproveMergeRequest"),
  put(`${mr}/reset_approvals`, "resetMergeRequestApprovals", { status: 202 }),
];
