"""Merge request approvals through python-gitlab: project.approvals get / update (POST) and save(),
project.approvalrules create / list / update / delete (one rule via gl.http_get: the client has
no get), mr.approval_rules create (the client puts junk "id" and "merge_request_iid" in the body)
/ list / get / update(rule_id, {...}) / delete, mr.approve(sha) and approval_password, mr.unapprove(),
mr.approvals.get(), mr.approval_state.get(), mr.reset_approvals() for a project bot, group rules
through the raw helpers with the feature flag set by gl.features.set, and the errors the client
raises. TAG is a unique name prefix; OWNER/DEV/REVIEWER_TOKEN belong to users OWNER/DEV/REVIEWER_ID."""
import os

from common import connect, emit, error_of, in_days

tag = os.environ["TAG"]
gl = connect()
owner = connect(os.environ["OWNER_TOKEN"])
dev = connect(os.environ["DEV_TOKEN"])
reviewer = connect(os.environ["REVIEWER_TOKEN"])
dev_id = int(os.environ["DEV_ID"])
reviewer_id = int(os.environ["REVIEWER_ID"])

created_project = owner.projects.create({"name": f"{tag}-project", "visibility": "private", "initialize_with_readme": True})
project = owner.projects.get(created_project.id)
project.members.create({"user_id": dev_id, "access_level": 30})
project.members.create({"user_id": reviewer_id, "access_level": 30})

# project configuration
updated_config = project.approvals.update(new_data={"reset_approvals_on_push": False})
config = project.approvals.get()
config.merge_requests_author_approval = True
config.save()
config_after_save = project.approvals.get().attributes

# project rules
rule = project.approvalrules.create({"name": "Reviewers", "approvals_required": 1, "user_ids": [reviewer_id]})
listed_rules = [r.id for r in project.approvalrules.list(get_all=True)]
one_rule = gl.http_get(f"/projects/{project.id}/approval_rules/{rule.id}")
updated_rule = project.approvalrules.update(rule.id, {"name": "Reviewers", "approvals_required": 2, "user_ids": [reviewer_id, dev_id]})
temporary = project.approvalrules.create({"name": "Temporary", "approvals_required": 1, "user_ids": [dev_id]})
project.approvalrules.delete(temporary.id)
rules_after_delete = [r.id for r in project.approvalrules.list(get_all=True)]

# a merge request and its rules
dev_project = dev.projects.get(project.id)
dev_project.branches.create({"branch": f"{tag}-feature", "ref": "main"})
mr = dev_project.mergerequests.create({"source_branch": f"{tag}-feature", "target_branch": "main", "title": "Python approvals"})
mr_rule = mr.approval_rules.create({"name": "ignored", "approvals_required": 1, "approval_project_rule_id": rule.id})
mr_rules = [r.id for r in mr.approval_rules.list(get_all=True)]
mr_rule_got = mr.approval_rules.get(mr_rule.id).attributes
mr_rule_updated = mr.approval_rules.update(mr_rule.id, {
    "merge_request_iid": mr.iid, "approval_rule_id": mr_rule.id, "name": "MR reviewers", "approvals_required": 1, "user_ids": [reviewer_id],
})
extra_rule = mr.approval_rules.create({"name": "Extra", "approvals_required": 1, "user_ids": [dev_id]})
mr.approval_rules.delete(extra_rule.id)

# approving
reviewer_mr = reviewer.projects.get(project.id, lazy=True).mergerequests.get(mr.iid)
errors = {"stale_sha": error_of(lambda: reviewer_mr.approve(sha="0" * 40))}
approved = reviewer_mr.approve(sha=reviewer_mr.sha)
errors["approve_twice"] = error_of(lambda: reviewer_mr.approve())
status = mr.approvals.get().attributes
state = mr.approval_state.get().attributes
reviewer_mr.unapprove()
status_after_unapprove = mr.approvals.get().attributes
errors["unapprove_again"] = error_of(lambda: reviewer_mr.unapprove())

# re-authentication: the password goes as a query parameter (python sends extra kwargs so)
project.approvals.update(new_data={"require_reauthentication_to_approve": True})
errors["no_password"] = error_of(lambda: reviewer_mr.approve())
with_password = reviewer_mr.approve(approval_password="password-123456")

# reset: humans get 401, a project bot resets
errors["reset_by_owner"] = error_of(lambda: project.mergerequests.get(mr.iid).reset_approvals())
bot_token = project.access_tokens.create({"name": "bot", "scopes": ["api"], "access_level": 30, "expires_at": in_days(30)})
bot = connect(bot_token.token)
reset_answer = bot.projects.get(project.id, lazy=True).mergerequests.get(mr.iid).reset_approvals()
status_after_reset = mr.approvals.get().attributes

# group rules: raw helpers, behind the approval_group_rules flag
group = owner.groups.create({"name": f"{tag}-group", "path": f"{tag}-group"})
errors["group_flag_off"] = error_of(lambda: owner.http_get(f"/groups/{group.id}/approval_rules"))
gl.features.set("approval_group_rules", True)
try:
    group_rule = owner.http_post(f"/groups/{group.id}/approval_rules", post_data={"name": "Group rule", "approvals_required": 1})
    group_rule_updated = owner.http_put(f"/groups/{group.id}/approval_rules/{group_rule['id']}", post_data={"name": "Group rule 2"})
    group_rules = owner.http_list(f"/groups/{group.id}/approval_rules", get_all=True)
finally:
    gl.features.set("approval_group_rules", False)

errors["dev_creates_project_rule"] = error_of(lambda: dev_project.approvalrules.create({"name": "No", "approvals_required": 1}))
errors["long_name"] = error_of(lambda: project.approvalrules.create({"name": "x" * 1025, "approvals_required": 1}))

emit({
    "project_id": project.id,
    "mr_id": mr.id,
    "mr_iid": mr.iid,
    "updated_config": updated_config,
    "config_after_save": config_after_save,
    "rule": rule.attributes,
    "listed_rules": listed_rules,
    "one_rule": one_rule,
    "updated_rule": updated_rule,
    "rules_after_delete": rules_after_delete,
    "mr_rule": mr_rule.attributes,
    "mr_rules": mr_rules,
    "mr_rule_got": mr_rule_got,
    "mr_rule_updated": mr_rule_updated,
    "approved": approved,
    "status": status,
    "state": state,
    "status_after_unapprove": status_after_unapprove,
    "with_password": with_password,
    "reset_answer": reset_answer,
    "status_after_reset": status_after_reset,
    "group_rule": group_rule,
    "group_rule_updated": group_rule_updated,
    "group_rules": group_rules,
    "errors": errors,
})
