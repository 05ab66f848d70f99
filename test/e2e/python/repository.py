"""Branches, commits and protected branches through python-gitlab: project.branches (create, get
with a slash in the name, list, delete), project.commits.create with actions (JSON body),
commits.list(ref_name=...) and get, project.protectedbranches (create with a JSON body, list, get,
delete by name), and the errors the client raises. PROJECT_ID is a project of the token's user;
DEV_TOKEN belongs to one of its Developers."""
import os

from common import connect, emit, error_of

gl = connect()
dev_gl = connect(os.environ["DEV_TOKEN"])
project = gl.projects.get(int(os.environ["PROJECT_ID"]))
dev_project = dev_gl.projects.get(project.id, lazy=True)


def branch_view(branch):
    return {"name": branch.name, "default": branch.default, "protected": branch.protected,
            "can_push": branch.can_push, "commit_id": branch.commit["id"]}


main = project.branches.get("main")
created = dev_project.branches.create({"branch": "feature/py", "ref": "main"})
fetched = dev_project.branches.get("feature/py")
listed = [b.name for b in dev_project.branches.list(get_all=True)]

commit = dev_project.commits.create({
    "branch": "feature/py",
    "commit_message": "Add from python\n\nbody",
    "actions": [
        {"action": "create", "file_path": "py/one.txt", "content": "1\n2\n"},
        {"action": "create", "file_path": "py/two.txt", "content": "3\n"},
    ],
})
second = dev_project.commits.create({
    "branch": "feature/py",
    "commit_message": "Update from python",
    "actions": [{"action": "update", "file_path": "py/one.txt", "content": "changed\n"}],
    "author_name": "Py Author",
    "author_email": "py@example.com",
})
history = [c.id for c in dev_project.commits.list(ref_name="feature/py", get_all=True)]
shown = dev_project.commits.get(commit.id)

protected = project.protectedbranches.create({"name": "feature/*", "push_access_level": 40, "merge_access_level": 30})
protected_listed = [p.name for p in project.protectedbranches.list(get_all=True)]
protected_get = project.protectedbranches.get("feature/*")

errors = {
    "dev_push_protected": error_of(lambda: dev_project.commits.create({
        "branch": "feature/py", "commit_message": "blocked",
        "actions": [{"action": "create", "file_path": "py/three.txt", "content": "x"}],
    })),
    "duplicate_protection": error_of(lambda: project.protectedbranches.create({"name": "feature/*"})),
    "dev_protect": error_of(lambda: dev_project.protectedbranches.create({"name": "other"})),
    "missing_file": error_of(lambda: project.commits.create({
        "branch": "main", "commit_message": "missing",
        "actions": [{"action": "delete", "file_path": "nope.txt"}],
    })),
    "unknown_action": error_of(lambda: project.commits.create({
        "branch": "main", "commit_message": "bad",
        "actions": [{"action": "rename", "file_path": "README.md"}],
    })),
    "duplicate_branch": error_of(lambda: dev_project.branches.create({"branch": "feature/py", "ref": "main"})),
    "unknown_commit": error_of(lambda: project.commits.get("0" * 40)),
}

project.protectedbranches.delete("feature/*")
after_unprotect = error_of(lambda: project.protectedbranches.get("feature/*"))
dev_project.branches.delete("feature/py")
after_delete = error_of(lambda: dev_project.branches.get("feature/py"))

emit({
    "main": branch_view(main),
    "created": branch_view(created),
    "fetched": branch_view(fetched),
    "listed": listed,
    "commit": {key: getattr(commit, key) for key in
               ("id", "short_id", "title", "message", "parent_ids", "author_name", "committer_name", "stats", "project_id")},
    "second": {key: getattr(second, key) for key in ("id", "parent_ids", "author_name", "author_email", "committer_name")},
    "history": history,
    "shown": {"id": shown.id, "title": shown.title, "stats": shown.stats},
    "protected": {"name": protected.name, "push": protected.push_access_levels, "merge": protected.merge_access_levels},
    "protected_listed": protected_listed,
    "protected_get": protected_get.name,
    "errors": errors,
    "after_unprotect": after_unprotect,
    "after_delete": after_delete,
})
