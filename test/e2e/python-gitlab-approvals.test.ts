// Merge request approvals against the real server process, driven by python-gitlab 3.12
// (test/e2e/python/approvals.py): project configuration, project and MR rules (path params win
// over the junk the client puts in the create body), approve / unapprove / approvals / approval
// state, password re-authentication, reset_approvals by a project bot, group rules through the raw
// helpers, and the client's error classes.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab approvals e2e test: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab approvals (SKIPPED: ${unavailable})` : "python-gitlab approvals", () => {
  it("configuration, rules, approve, unapprove, state, reset and group rules", async () => {
    const tag = uniqueName("pyap").toLowerCase().replace(/_/g, "-");
    const [owner, dev, reviewer] = await Promise.all([createUser(suite.server), createUser(suite.server), createUser(suite.server)]);
    const out = await runPython("approvals.py", suite.server, {
      TAG: tag, OWNER_TOKEN: owner.token, DEV_TOKEN: dev.token, REVIEWER_TOKEN: reviewer.token,
      DEV_ID: String(dev.id), REVIEWER_ID: String(reviewer.id),
    });

    expect(out.updated_config).toMatchObject({ reset_approvals_on_push: false, approvers: [], approver_groups: [] });
    expect(out.config_after_save).toMatchObject({ reset_approvals_on_push: false, merge_requests_author_approval: true });

    expect(out.rule).toMatchObject({ name: "Reviewers", approvals_required: 1, rule_type: "regular", users: [{ id: reviewer.id }] });
    expect(out.listed_rules).toEqual([out.rule.id]);
    const { project_id: _parent, ...ruleBody } = out.rule; // python adds its parent attribute
    expect(out.one_rule).toEqual(ruleBody);
    expect(out.updated_rule).toMatchObject({ id: out.rule.id, approvals_required: 2 });
    expect(out.updated_rule.users.map((u: any) => u.id).sort()).toEqual([dev.id, reviewer.id].sort());
    expect(out.rules_after_delete).toEqual([out.rule.id]);

    expect(out.mr_rule).toMatchObject({ name: "Reviewers", approvals_required: 1, source_rule: { approvals_required: 2 }, overridden: true });
    expect(out.mr_rules).toEqual([out.mr_rule.id]);
    expect(out.mr_rule_got).toMatchObject({ id: out.mr_rule.id, name: "Reviewers" });
    expect(out.mr_rule_updated).toMatchObject({ id: out.mr_rule.id, name: "MR reviewers", users: [{ id: reviewer.id }] });

    expect(out.errors.stale_sha).toMatchObject({ type: "GitlabMRApprovalError", response_code: 409 });
    expect(out.approved).toMatchObject({ iid: out.mr_iid, project_id: out.project_id, approved: true, user_has_approved: true, approvals_left: 0 });
    expect(out.errors.approve_twice).toMatchObject({ type: "GitlabAuthenticationError", response_code: 401 });
    expect(out.status.approved_by.map((a: any) => a.user.id)).toEqual([reviewer.id]);
    expect(out.state).toMatchObject({ approval_rules_overwritten: true, rules: [{ id: out.mr_rule.id, approved: true, approved_by: [{ id: reviewer.id }] }] });
    expect(out.status_after_unapprove).toMatchObject({ approved_by: [], approved: false, approvals_left: 1 });
    expect(out.errors.unapprove_again).toMatchObject({ type: "GitlabMRApprovalError", response_code: 404, error_message: "404 Not Found" });

    expect(out.errors.no_password).toMatchObject({ type: "GitlabAuthenticationError", response_code: 401 });
    expect(out.with_password).toMatchObject({ user_has_approved: true, require_password_to_approve: true });

    expect(out.errors.reset_by_owner).toMatchObject({ type: "GitlabAuthenticationError", response_code: 401 });
    expect(out.reset_answer).toBe(202);
    expect(out.status_after_reset.approved_by).toEqual([]);

    expect(out.errors.group_flag_off).toMatchObject({ response_code: 404, error_message: "404 Not Found" });
    expect(out.group_rule).toMatchObject({ name: "Group rule", rule_type: "any_approver", applies_to_all_protected_branches: true });
    expect(out.group_rule_updated).toMatchObject({ id: out.group_rule.id, name: "Group rule 2" });
    expect(out.group_rules.map((r: any) => r.id)).toEqual([out.group_rule.id]);

    expect(out.errors.dev_creates_project_rule).toMatchObject({ type: "GitlabCreateError", response_code: 403 });
    expect(out.errors.long_name).toMatchObject({
      type: "GitlabCreateError", response_code: 400, error_message: { name: ["is too long (maximum is 1024 characters)"] },
    });
  });
});
