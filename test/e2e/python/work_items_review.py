"""The fixtures of approvals, emoji reactions and webhooks built the way a python-gitlab 3.12 user
builds them: a project in a group with a second user as Developer; a branch, a commit on it
(commits.create with actions), main protected and unprotected by name; issues created, edited,
closed with state_event and listed with filters; a merge request from the branch, listed, read,
changed (title, assignee, reviewer), closed and reopened; a snippet in the file_name + content
form, updated, read raw and deleted; notes created, edited and deleted on the issue, the MR and
the snippet, through fetched objects and through lazy ones (whose child paths come from the path
values, not from the JSON); list(get_all=True) and list(iterator=True) walking the pages.
TAG is a unique name prefix, DEV_ID / DEV_TOKEN belong to the second user."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
dev_id = int(os.environ["DEV_ID"])
gl = connect()
gl.auth()
dev_gl = connect(os.environ["DEV_TOKEN"])

group = gl.groups.create({"name": tag, "path": tag})
group.members.create({"user_id": dev_id, "access_level": 30})
project = gl.projects.create({"name": tag, "namespace_id": group.id, "initialize_with_readme": True})
dev_project = dev_gl.projects.get(project.id)
# a project by its full path, never fetched: every child path is built from path values
lazy_project = dev_gl.projects.get(project.path_with_namespace, lazy=True)

# repository: a branch, a commit on it, main protected and unprotected by name
branch_name = f"feature-{tag}"
branch = dev_project.branches.create({"branch": branch_name, "ref": "main"})
commit = dev_project.commits.create({
    "branch": branch_name,
    "commit_message": "Add the notes\n\nTwo lines of notes.",
    "actions": [{"action": "create", "file_path": "docs/notes.txt", "content": "one\ntwo\n"}],
})
repository = {
    "branch_created": {"name": branch.name, "commit_id": branch.commit["id"]},
    "commit": {key: commit.attributes[key] for key in ("id", "title", "message", "parent_ids", "author_email")},
    "commit_read": dev_project.commits.get(commit.id).attributes["id"],
    "branch_head": dev_project.branches.get(branch_name).commit["id"],
    "branch_history": [c.id for c in dev_project.commits.list(ref_name=branch_name, get_all=True)],
    "main_head": dev_project.branches.get("main").commit["id"],
}
protected = project.protectedbranches.create({"name": "main", "push_access_level": 40, "merge_access_level": 30})
main_protected = dev_project.branches.get("main")
repository["protected"] = {
    "created": {"name": protected.name, "push": [a["access_level"] for a in protected.push_access_levels],
                "merge": [a["access_level"] for a in protected.merge_access_levels]},
    "read_by_dev": dev_project.protectedbranches.get("main").name,
    "listed": [p.name for p in dev_project.protectedbranches.list(get_all=True)],
    "branch": {key: main_protected.attributes[key] for key in ("protected", "developers_can_push", "developers_can_merge", "can_push")},
    "dev_push": error_of(lambda: dev_project.commits.create({
        "branch": "main", "commit_message": "no", "actions": [{"action": "create", "file_path": "no.txt", "content": "no"}],
    })),
    "duplicate": error_of(lambda: project.protectedbranches.create({"name": "main"})),
}
project.protectedbranches.delete("main")
repository["protected"]["after_delete"] = {
    "listed": [p.name for p in project.protectedbranches.list(get_all=True)],
    "branch_protected": dev_project.branches.get("main").protected,
    "get": error_of(lambda: project.protectedbranches.get("main")),
}

# issues: created, edited through save(), closed with state_event, listed with filters
issue = dev_project.issues.create({"title": "Broken page", "description": "- [ ] find\n- [x] fix", "labels": ["bug", "ui"]})
created_issue = {key: issue.attributes[key] for key in ("iid", "project_id", "title", "state", "labels", "task_completion_status")}
issue.title = "Broken page, edited"
issue.labels = ["bug", "backend"]
issue.assignee_ids = [dev_id]
issue.save()
edited_issue = {key: issue.attributes[key] for key in ("title", "labels", "state")}
edited_issue["assignees"] = [a["id"] for a in issue.assignees]
others = [dev_project.issues.create({"title": f"Other {n}", "labels": ["ui"] if n % 2 else []}) for n in range(4)]
issue.state_event = "close"
issue.save()
closed_issue = {"state": issue.state, "closed_by": (issue.attributes["closed_by"] or {}).get("id")}
reread = dev_project.issues.get(issue.iid)
issues = {
    "created": created_issue,
    "edited": edited_issue,
    "closed": closed_issue,
    "reread": {key: reread.attributes[key] for key in ("id", "iid", "project_id", "title", "state", "labels", "web_url")},
    "others": [o.iid for o in others],
    "closed_list": [i.iid for i in dev_project.issues.list(state="closed", get_all=True)],
    "opened_list": [i.iid for i in dev_project.issues.list(state="opened", get_all=True)],
    "label_bug": [i.iid for i in dev_project.issues.list(labels=["bug"], get_all=True)],
    "label_ui": [i.iid for i in dev_project.issues.list(labels=["ui"], state="opened", get_all=True)],
    "label_bug_backend": [i.iid for i in dev_project.issues.list(labels=["bug", "backend"], get_all=True)],
    "label_other_case": [i.iid for i in dev_project.issues.list(labels=["BUG"], get_all=True)],
    "search": [i.iid for i in dev_project.issues.list(search="edited", get_all=True)],
    "search_other_case": [i.iid for i in dev_project.issues.list(search="EDITED", get_all=True)],
    "bad_state_event": error_of(lambda: dev_project.issues.update(issue.iid, {"state_event": "archive"})),
    "missing_title": error_of(lambda: dev_gl.http_post(f"/projects/{project.id}/issues", post_data={"description": "x"})),
}
paged = dev_project.issues.list(iterator=True, per_page=2, sort="asc")
issues["iterator"] = {"len": len(paged), "total_pages": paged.total_pages, "iids": [i.iid for i in paged]}
issues["get_all"] = [i.iid for i in dev_project.issues.list(get_all=True, per_page=2, sort="asc")]
# the lazy issue's notes go to /projects/<full path>/issues/<iid>/notes
lazy_issue = lazy_project.issues.get(issue.iid, lazy=True)
issues["lazy_notes_before"] = [n.id for n in lazy_issue.notes.list(get_all=True)]

# merge requests: from the branch, listed, read, changed, closed and reopened
mr = dev_project.mergerequests.create({"source_branch": branch_name, "target_branch": "main", "title": "Add the notes", "labels": ["docs"]})
created_mr = {key: mr.attributes[key] for key in ("iid", "project_id", "title", "state", "source_branch", "target_branch", "sha", "labels")}
mr.title = "Add the notes, reviewed"
mr.assignee_id = dev_id
mr.reviewer_ids = [gl.user.id]
mr.save()
changed_mr = {key: mr.attributes[key] for key in ("title", "state")}
changed_mr["assignees"] = [a["id"] for a in mr.assignees]
changed_mr["reviewers"] = [r["id"] for r in mr.reviewers]
mr.state_event = "close"
mr.save()
closed_state = mr.state
mr.state_event = "reopen"
mr.save()
mrs = {
    "created": created_mr,
    "changed": changed_mr,
    "closed_state": closed_state,
    "reopened_state": mr.state,
    "duplicate": error_of(lambda: dev_project.mergerequests.create({"source_branch": branch_name, "target_branch": "main", "title": "Again"})),
    "unknown_branch": error_of(lambda: dev_project.mergerequests.create({"source_branch": "nope", "target_branch": "main", "title": "Nope"})),
    "listed": [m.iid for m in dev_project.mergerequests.list(state="opened", get_all=True)],
    "listed_by_label": [m.iid for m in dev_project.mergerequests.list(labels=["docs"], get_all=True)],
    "listed_by_search": [m.iid for m in dev_project.mergerequests.list(search="reviewed", get_all=True)],
    "read": {key: dev_project.mergerequests.get(mr.iid).attributes[key] for key in ("id", "iid", "project_id", "title", "state", "sha")},
}

# snippet: the file_name + content form, updated, read raw, deleted at the end
snippet = dev_project.snippets.create({"title": "Notes", "file_name": "notes.md", "content": "# first", "visibility": "private"})
dev_project.snippets.update(snippet.id, {"content": "# second"})
snippets = {
    "created": {key: snippet.attributes[key] for key in ("id", "project_id", "title", "file_name", "visibility")},
    "raw": dev_project.snippets.get(snippet.id).content().decode(),
    "lazy_raw": lazy_project.snippets.get(snippet.id, lazy=True).content().decode(),
    "listed": [s.id for s in dev_project.snippets.list(get_all=True)],
}

# notes on the issue, the MR and the snippet: through fetched parents and through lazy ones
notes = {}
for kind, fetched, lazy in (
    ("issue", dev_project.issues.get(issue.iid), lazy_issue),
    ("mr", dev_project.mergerequests.get(mr.iid), lazy_project.mergerequests.get(mr.iid, lazy=True)),
    ("snippet", dev_project.snippets.get(snippet.id), lazy_project.snippets.get(snippet.id, lazy=True)),
):
    first = fetched.notes.create({"body": f"first {kind} note"})
    second = lazy.notes.create({"body": f"second {kind} note"})
    edited = fetched.notes.get(first.id)
    edited.body = f"first {kind} note, edited"
    edited.save()
    notes[kind] = {
        "first": {key: first.attributes[key] for key in ("noteable_type", "noteable_id", "noteable_iid", "project_id", "body")},
        "second_id": second.id,
        "first_id": first.id,
        "edited": lazy.notes.get(first.id).body,
        "listed": [n.id for n in fetched.notes.list(get_all=True, per_page=1, sort="asc")],
    }
    lazy.notes.delete(second.id)
    notes[kind]["after_delete"] = [n.id for n in lazy.notes.list(get_all=True)]
    notes[kind]["deleted_get"] = error_of(lambda: fetched.notes.get(second.id))
notes["empty_body"] = error_of(lambda: lazy_issue.notes.create({"body": " "}))
dev_project.snippets.delete(snippet.id)
snippets["after_delete"] = error_of(lambda: dev_project.snippets.get(snippet.id))

emit({
    "root_id": gl.user.id,
    "group_id": group.id,
    "project": {"id": project.id, "path_with_namespace": project.path_with_namespace, "web_url": project.web_url},
    "branch_name": branch_name,
    "repository": repository,
    "issue": {"id": issue.id, "iid": issue.iid},
    "issues": issues,
    "mr": {"id": mr.id, "iid": mr.iid},
    "mrs": mrs,
    "snippets": snippets,
    "notes": notes,
})
