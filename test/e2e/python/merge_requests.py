"""Merge requests through python-gitlab: project.branches.create and project.commits.create for
the fixtures, project.mergerequests.create / get / list (filters, iids, get_all over the Link
header), mr.save() with changed fields and state_event close / reopen, the group and
instance-wide lists, and the errors the client raises. TAG is a unique name prefix, DEV_TOKEN
belongs to a Developer of the projects created here (DEV_ID), USER_TOKEN to a user who is not a
member."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
dev_id = int(os.environ["DEV_ID"])
gl = connect()
dev = connect(os.environ["DEV_TOKEN"])
outsider = connect(os.environ["USER_TOKEN"])


def view(mr):
    """The fields a test compares, from an object or from the dict manager.update() returns."""
    if not isinstance(mr, dict):
        mr = mr.attributes
    return {key: mr[key] for key in (
        "id", "iid", "project_id", "title", "description", "state", "source_branch", "target_branch", "sha",
        "merge_status", "detailed_merge_status", "draft", "labels", "web_url", "references")} | {
        "author_id": mr["author"]["id"],
        "assignee_ids": [u["id"] for u in mr["assignees"]],
        "reviewer_ids": [u["id"] for u in mr["reviewers"]],
        "closed_by_id": mr["closed_by"]["id"] if mr["closed_by"] else None,
    }


group = gl.groups.create({"name": f"{tag}-group", "path": f"{tag}-group", "visibility": "private"})
group.members.create({"user_id": dev_id, "access_level": 30})
admin_project = gl.projects.create({"name": f"{tag}-project", "namespace_id": group.id, "initialize_with_readme": True})
project = dev.projects.get(admin_project.id)

project.branches.create({"branch": f"{tag}-one", "ref": "main"})
project.branches.create({"branch": f"{tag}-two", "ref": "main"})
one = project.mergerequests.create({
    "source_branch": f"{tag}-one", "target_branch": "main", "title": "First from python",
    "description": "- [x] done", "labels": ["py", "e2e"], "assignee_id": dev_id, "reviewer_ids": [dev_id],
})
two = project.mergerequests.create({"source_branch": f"{tag}-two", "target_branch": "main", "title": "Draft: second"})
created = view(one)

commit = project.commits.create({
    "branch": f"{tag}-one", "commit_message": "Add a file from python",
    "actions": [{"action": "create", "file_path": "py.txt", "content": "hello\n"}],
})
fetched = project.mergerequests.get(one.iid)
after_commit = {"sha": fetched.sha, "commit_id": commit.id, "changes_count": fetched.changes_count,
                "diff_head": fetched.diff_refs["head_sha"]}

# mr.save() sends the changed attributes; state_event closes and reopens
fetched.title = "First, renamed"
fetched.description = "saved from python"
fetched.save()
renamed = view(project.mergerequests.get(one.iid))
fetched.state_event = "close"
fetched.save()
closed = view(fetched)
fetched.state_event = "reopen"
fetched.save()
reopened = view(project.mergerequests.get(one.iid))
updated = view(project.mergerequests.update(two.iid, {"labels": ["later"], "target_branch": f"{tag}-one"}))

lists = {
    "all": [mr.iid for mr in project.mergerequests.list(get_all=True, per_page=1)],
    "opened": [mr.iid for mr in project.mergerequests.list(state="opened")],
    "wip": [mr.iid for mr in project.mergerequests.list(wip="yes")],
    "labels": [mr.iid for mr in project.mergerequests.list(labels=["py", "e2e"])],
    "iids": [mr.iid for mr in project.mergerequests.list(iids=[two.iid])],
    "source": [mr.iid for mr in project.mergerequests.list(source_branch=f"{tag}-two")],
    "group": [mr.iid for mr in group.mergerequests.list(get_all=True)],
    "mine": sorted(mr.id for mr in dev.mergerequests.list(get_all=True)),
    "assigned": [mr.id for mr in dev.mergerequests.list(scope="assigned_to_me")],
    "outsider_all": [mr.id for mr in outsider.mergerequests.list(scope="all", get_all=True) if mr.project_id == project.id],
}

errors = {
    "duplicate": error_of(lambda: project.mergerequests.create({"source_branch": f"{tag}-one", "target_branch": "main", "title": "Dup"})),
    "same_branch": error_of(lambda: project.mergerequests.create({"source_branch": "main", "target_branch": "main", "title": "Same"})),
    "unknown_branch": error_of(lambda: project.mergerequests.create({"source_branch": f"{tag}-ghost", "target_branch": "main", "title": "Ghost"})),
    "bad_state_event": error_of(lambda: project.mergerequests.update(one.iid, {"state_event": "merge"})),
    "unknown_iid": error_of(lambda: project.mergerequests.get(999999)),
    "outsider_get": error_of(lambda: outsider.projects.get(project.id, lazy=True).mergerequests.get(one.iid)),
}

emit({
    "project_id": project.id, "project_path": project.path_with_namespace, "group_id": group.id,
    "one_id": one.id, "two_id": two.id, "two_iid": two.iid,
    "created": created, "after_commit": after_commit, "renamed": renamed, "closed": closed, "reopened": reopened,
    "updated": updated, "lists": lists, "errors": errors,
})
