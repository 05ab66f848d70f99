"""Merging through python-gitlab: an approval rule makes mr.merge() fail (GitlabMRClosedError, 405)
until the reviewer approves; then mr.merge(should_remove_source_branch=True) merges; mr.commits(),
mr.participants(), mr.changes(), the diffs (raw helper), mr.rebase(), mr.merge_ref(); project.tags
create / list / delete; project.repository_merge_base([...]) (refs sent comma-separated) and
project.commits.list(all=True). TAG is a unique name prefix; the tokens belong to OWNER, DEV, REVIEWER."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
owner = connect(os.environ["OWNER_TOKEN"])
dev = connect(os.environ["DEV_TOKEN"])
reviewer = connect(os.environ["REVIEWER_TOKEN"])
dev_id = int(os.environ["DEV_ID"])
reviewer_id = int(os.environ["REVIEWER_ID"])

created = owner.projects.create({"name": f"{tag}-project", "visibility": "private", "initialize_with_readme": True})
project = owner.projects.get(created.id)
project.members.create({"user_id": dev_id, "access_level": 30})
project.members.create({"user_id": reviewer_id, "access_level": 30})
project.approvalrules.create({"name": "Reviewers", "approvals_required": 1, "user_ids": [reviewer_id]})

dev_project = dev.projects.get(project.id)
dev_project.branches.create({"branch": f"{tag}-feature", "ref": "main"})
commit = dev_project.commits.create({
    "branch": f"{tag}-feature", "commit_message": "Add a page",
    "actions": [{"action": "create", "file_path": "pages/one.md", "content": "one\n"}],
})
mr = dev_project.mergerequests.create({"source_branch": f"{tag}-feature", "target_branch": "main", "title": "Python merge"})
before = dev_project.mergerequests.get(mr.iid).detailed_merge_status
errors = {"unapproved": error_of(lambda: mr.merge())}

reviewer.projects.get(project.id, lazy=True).mergerequests.get(mr.iid).approve()
after_approval = dev_project.mergerequests.get(mr.iid).detailed_merge_status
merged = mr.merge(should_remove_source_branch=True)
errors["merge_twice"] = error_of(lambda: mr.merge())
branches = [b.name for b in project.branches.list(get_all=True)]

mr_commits = [c.id for c in mr.commits()]
participants = [u["id"] for u in mr.participants()]
changes = mr.changes()
# mr.diffs is the versions API in python-gitlab: the diffs endpoint through the raw helper
diffs = [d["new_path"] for d in dev.http_list(f"/projects/{project.id}/merge_requests/{mr.iid}/diffs", get_all=True)]

# a second merge request: rebase and merge ref
dev_project.branches.create({"branch": f"{tag}-second", "ref": "main"})
dev_project.commits.create({
    "branch": f"{tag}-second", "commit_message": "Second",
    "actions": [{"action": "create", "file_path": "pages/two.md", "content": "two\n"}],
})
main_commit = dev_project.commits.create({
    "branch": "main", "commit_message": "On main",
    "actions": [{"action": "create", "file_path": "pages/main.md", "content": "main\n"}],
})
second = dev_project.mergerequests.create({"source_branch": f"{tag}-second", "target_branch": "main", "title": "Second"})
rebase = second.rebase()
rebased_refs = dev_project.mergerequests.get(second.iid).diff_refs
merge_ref = second.merge_ref()

# tags, merge base, every branch's commits
created_tag = dev_project.tags.create({"tag_name": "v1.0", "ref": "main", "message": "Release"})
tags = [t.name for t in dev_project.tags.list(get_all=True)]
merge_base = dev_project.repository_merge_base([f"{tag}-second", "v1.0"])
all_commits = [c.id for c in dev_project.commits.list(all=True, get_all=True)]
main_only = [c.id for c in dev_project.commits.list(get_all=True)]
dev_project.tags.delete("v1.0")
tags_after_delete = [t.name for t in dev_project.tags.list(get_all=True)]

emit({
    "commit": commit.id, "main_commit": main_commit.id, "before": before, "after_approval": after_approval,
    "merged": merged, "branches": branches, "errors": errors,
    "mr_commits": mr_commits, "participants": participants, "changes": changes["changes"], "diffs": diffs,
    "rebase": rebase, "rebased_refs": rebased_refs, "merge_ref": merge_ref,
    "tag": created_tag.attributes, "tags": tags, "merge_base": merge_base, "all_commits": all_commits, "main_only": main_only,
    "tags_after_delete": tags_after_delete,
})
