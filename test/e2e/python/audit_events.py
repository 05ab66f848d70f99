"""Audit events through python-gitlab 3.12: gl.audit_events (list with filters, get),
group.audit_events and project.audit_events (list, get), and the errors the client raises for a
user who may not read them. TAG is a unique name prefix, USER_TOKEN belongs to a user who is not
a member of anything made here."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
gl = connect()
user_gl = connect(os.environ["USER_TOKEN"])

group = gl.groups.create({"name": tag, "path": tag, "visibility": "public"})
project = gl.projects.create({"name": tag, "namespace_id": group.id, "visibility": "public"})
project.protectedbranches.create({"name": "release/*"})
hook = project.hooks.create({"url": "http://8.8.8.8/hook", "push_events": True})
hook.delete()

project_events = project.audit_events.list(get_all=True)
group_events = group.audit_events.list(get_all=True)
instance_events = gl.audit_events.list(entity_type="Project", entity_id=project.id, get_all=True)
one = project.audit_events.get(project_events[0].id)
emit({
    "project_id": project.id,
    "group_id": group.id,
    "project": [e.event_name for e in project_events],
    "group": [e.event_name for e in group_events],
    "instance": [e.id for e in instance_events],
    "project_ids": [e.id for e in project_events],
    "one": one.attributes,
    "group_one": group.audit_events.get(group_events[0].id).event_name,
    "instance_one": gl.audit_events.get(project_events[0].id).id,
    "keyset": [e.id for e in project.audit_events.list(pagination="keyset", order_by="id", sort="desc", per_page=1, get_all=True)],
    "errors": {
        "instance": error_of(lambda: user_gl.audit_events.list()),
        "project": error_of(lambda: user_gl.projects.get(project.id, lazy=True).audit_events.list()),
        "missing": error_of(lambda: project.audit_events.get(999999999)),
    },
})
