"""Project issues through python-gitlab 3.12: project.issues.create / get / list (filters,
get_all walking the Link header), issue.save() with changed attributes and state_event, the
instance-wide gl.issues.list, and the errors the client raises. TAG is a unique name prefix,
MEMBER_TOKEN belongs to a Developer of the project the script creates, GUEST_ID / GUEST_TOKEN to
a Guest, MEMBER_ID is the Developer's user id."""
import os

import gitlab

from common import connect, emit, error_of

tag = os.environ["TAG"]
member_id = int(os.environ["MEMBER_ID"])
guest_id = int(os.environ["GUEST_ID"])
gl = connect()
member_gl = connect(os.environ["MEMBER_TOKEN"])
guest_gl = connect(os.environ["GUEST_TOKEN"])
anonymous = gitlab.Gitlab(os.environ["FORGELINE_URL"])


def view(issue):
    # attributes, not getattr: ProjectIssue.closed_by() is a method (merge requests closing it)
    data = issue.attributes
    return {key: data[key] for key in
            ("id", "iid", "project_id", "title", "description", "state", "labels", "confidential")} | {
        "assignee_ids": [a["id"] for a in data["assignees"]],
        "closed_by": data["closed_by"] and data["closed_by"]["id"],
    }


project = gl.projects.create({"name": tag, "visibility": "private"})
project.members.create({"user_id": member_id, "access_level": 30})
project.members.create({"user_id": guest_id, "access_level": 10})

created = project.issues.create({"title": "From python", "description": "details", "labels": ["z", "a"],
                                 "assignee_ids": [member_id]})
fetched = project.issues.get(created.iid)
for number in range(3):
    project.issues.create({"title": f"Filler {number}"})

member_project = member_gl.projects.get(project.id, lazy=True)
issue = member_project.issues.get(created.iid)
issue.title = "Saved by python"
issue.labels = ["a", "b"]
issue.save()
after_save = view(member_project.issues.get(created.iid))

issue.state_event = "close"
issue.save()
closed = view(project.issues.get(created.iid))
issue.state_event = "reopen"
issue.save()
reopened = view(project.issues.get(created.iid))

emit({
    "project_id": project.id,
    "created": view(created),
    "fetched": view(fetched),
    "after_save": after_save,
    "closed": closed,
    "reopened": reopened,
    "all_iids": [i.iid for i in project.issues.list(per_page=2, get_all=True)],
    "labelled_iids": [i.iid for i in project.issues.list(labels="b", get_all=True)],
    "opened_count": len(project.issues.list(state="opened", get_all=True)),
    "assigned_to_member": [i.id for i in member_gl.issues.list(scope="assigned_to_me", get_all=True)],
    "errors": {
        # issues.create checks `title` client-side, so the raw helper sends the request
        "missing_title": error_of(lambda: gl.http_post(f"/projects/{project.id}/issues", post_data={"description": "x"})),
        "bad_state_event": error_of(lambda: project.issues.update(created.iid, {"state_event": "open"})),
        "guest_update": error_of(lambda: guest_gl.projects.get(project.id, lazy=True).issues.update(created.iid, {"title": "x"})),
        "anonymous_read": error_of(lambda: anonymous.projects.get(project.id, lazy=True).issues.get(created.iid)),
        "unknown_iid": error_of(lambda: project.issues.get(9999)),
    },
})
