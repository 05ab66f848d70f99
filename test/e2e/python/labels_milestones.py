"""Labels and milestones through python-gitlab 3.12: project and group labels (create, list,
search, save with a new name and a priority, a priority alone on the group's label from the project,
subscribe and unsubscribe, promote, delete), milestones (create, list, close, issues and merge
requests, delete) and a project milestone promoted to the group. TAG is a unique name prefix;
DEV_ID / DEV_TOKEN belong to a user made Developer of the project only, GUEST_ID / GUEST_TOKEN to a
Guest of the group."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
dev_id = int(os.environ["DEV_ID"])
guest_id = int(os.environ["GUEST_ID"])
gl = connect()
dev_gl = connect(os.environ["DEV_TOKEN"])
guest_gl = connect(os.environ["GUEST_TOKEN"])

group = gl.groups.create({"name": tag, "path": tag, "visibility": "private"})
group.members.create({"user_id": guest_id, "access_level": 10})
project = gl.projects.create({"name": tag, "namespace_id": group.id, "visibility": "private", "initialize_with_readme": True})
sibling = gl.projects.create({"name": f"{tag}-sibling", "namespace_id": group.id, "visibility": "private", "initialize_with_readme": True})
project.members.create({"user_id": dev_id, "access_level": 30})
dev_project = dev_gl.projects.get(project.id, lazy=True)
guest_project = guest_gl.projects.get(project.id, lazy=True)
out = {}

# labels
area = group.labels.create({"name": "area", "color": "#ff0000", "description": "team-wide"})
bug = dev_project.labels.create({"name": "bug", "color": "red", "description": "broken", "priority": 2})
out["created"] = {"name": bug.name, "color": bug.color, "priority": bug.priority, "is_project_label": bug.is_project_label}
out["guest_create"] = error_of(lambda: guest_project.labels.create({"name": "nope", "color": "#000000"}))
out["taken"] = error_of(lambda: dev_project.labels.create({"name": "area", "color": "#000000"}))
out["listed"] = [[label.name, label.is_project_label] for label in guest_project.labels.list()]
out["searched"] = [label.name for label in guest_project.labels.list(search="wide")]

bug = dev_project.labels.get("bug")
bug.new_name = "defect"
bug.priority = 5
bug.save()
out["saved"] = {"name": bug.name, "priority": bug.priority}
shared = dev_project.labels.get("area")
shared.priority = 1
shared.save()
out["prioritised"] = {"id": shared.id, "name": shared.name, "color": shared.color, "priority": shared.priority}
out["group_label_after"] = group.labels.get(area.id).color
shared.color = "#00ff00"
out["dev_group_label_change"] = error_of(shared.save)

guest_label = guest_project.labels.get("defect")
guest_label.subscribe()
out["subscribed"] = guest_project.labels.get("defect").subscribed
out["subscribe_again"] = error_of(guest_label.subscribe)
guest_label.unsubscribe()
out["unsubscribed"] = guest_project.labels.get("defect").subscribed
guest_group_label = guest_gl.groups.get(group.id, lazy=True).labels.get("area")
guest_group_label.subscribe()
out["group_subscribed"] = guest_gl.groups.get(group.id, lazy=True).labels.get("area").subscribed

area = group.labels.get("area")
area.description = "everyone"
area.save()
out["group_saved"] = group.labels.get("area").description

feature = project.labels.create({"name": "feature", "color": "#123456"})
out["promoted"] = feature.promote()["name"]
out["group_labels"] = sorted(label.name for label in group.labels.list())

out["dev_delete_group_label"] = error_of(lambda: dev_project.labels.delete("area"))
dev_project.labels.delete("defect")
out["after_delete"] = error_of(lambda: project.labels.get("defect"))
group.labels.delete("area")
out["left"] = [label.name for label in project.labels.list()]

# milestones
m = project.milestones.create({"title": "v1.0", "description": "first", "start_date": "2031-01-01", "due_date": "2031-01-31"})
twin = sibling.milestones.create({"title": "v1.0"})
later = project.milestones.create({"title": "v2.0"})
later.state_event = "close"
later.save()
out["active"] = [x.title for x in project.milestones.list(state="active")]
out["closed"] = [x.title for x in project.milestones.list(state="closed")]
out["guest_milestone"] = error_of(lambda: guest_project.milestones.create({"title": "nope"}))

issue = project.issues.create({"title": "Ship it", "milestone_id": m.id})
twin_issue = sibling.issues.create({"title": "Ship it too", "milestone_id": twin.id})
project.branches.create({"branch": "feature", "ref": "main"})
project.files.create({"file_path": "feature.txt", "branch": "feature", "content": "hello\n", "commit_message": "Add feature"})
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature", "milestone_id": m.id})
m = project.milestones.get(m.id)
out["milestone_issues"] = [i.iid for i in m.issues()]
out["milestone_mrs"] = [x.iid for x in m.merge_requests()]

out["dev_promote"] = error_of(dev_project.milestones.get(m.id, lazy=True).promote)
out["promote"] = m.promote()
promoted = group.milestones.list()
out["group_milestones"] = [{"title": x.title, "description": x.description, "due_date": x.due_date} for x in promoted]
out["sibling_milestones"] = [x.title for x in sibling.milestones.list()]
out["issue_milestone"] = project.issues.get(issue.iid).milestone["id"] == promoted[0].id
out["twin_issue_milestone"] = sibling.issues.get(twin_issue.iid).milestone["id"] == promoted[0].id
out["mr_milestone"] = project.mergerequests.get(mr.iid).milestone["id"] == promoted[0].id
out["promote_again"] = error_of(m.promote)

project.milestones.delete(later.id)
out["after_milestone_delete"] = error_of(lambda: project.milestones.get(later.id))
group.milestones.delete(promoted[0].id)
out["issue_after_group_delete"] = project.issues.get(issue.iid).milestone

emit(out)
