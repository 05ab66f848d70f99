"""An issue's surroundings and its deletion through python-gitlab 3.12: issue.participants(),
issue.closed_by() (merge requests whose "Closes #1" names it), issue.related_merge_requests(),
and issue.delete() (a Guest is refused, root deletes). TAG is a unique name prefix; MEMBER_ID /
MEMBER_TOKEN belong to a user made Developer, GUEST_ID / GUEST_TOKEN / GUEST_USERNAME to a Guest."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
member_id = int(os.environ["MEMBER_ID"])
guest_id = int(os.environ["GUEST_ID"])
gl = connect()
member_gl = connect(os.environ["MEMBER_TOKEN"])
guest_gl = connect(os.environ["GUEST_TOKEN"])

project = gl.projects.create({"name": tag, "visibility": "private", "initialize_with_readme": True})
project.members.create({"user_id": member_id, "access_level": 30})
project.members.create({"user_id": guest_id, "access_level": 10})

issue = project.issues.create({"title": "Crash on start", "assignee_ids": [member_id]})
member_project = member_gl.projects.get(project.id, lazy=True)
member_project.issues.get(issue.iid, lazy=True).notes.create({"body": f"@{os.environ['GUEST_USERNAME']} can you confirm?"})

mrs = {}
for name, description in (("closing", f"Closes #{issue.iid}"), ("mentioning", f"See #{issue.iid}")):
    member_project.branches.create({"branch": f"{name}-branch", "ref": "main"})
    mrs[name] = member_project.mergerequests.create({
        "source_branch": f"{name}-branch", "target_branch": "main", "title": name, "description": description,
    }).iid

issue = project.issues.get(issue.iid)
participants = [user["id"] for user in issue.participants()]
closed_by = [mr["iid"] for mr in issue.closed_by()]
related = [mr["iid"] for mr in issue.related_merge_requests()]

guest_delete = error_of(lambda: guest_gl.projects.get(project.id, lazy=True).issues.delete(issue.iid))
member_delete = error_of(lambda: member_project.issues.delete(issue.iid))
issue.delete()

emit({
    "root_id": gl.users.list(username="root")[0].id,
    "mrs": mrs,
    "participants": participants,
    "closed_by": closed_by,
    "related": related,
    "guest_delete": guest_delete,
    "member_delete": member_delete,
    "after_delete": error_of(lambda: project.issues.get(issue.iid)),
    "second_delete": error_of(lambda: project.issues.delete(issue.iid)),
})
