"""Group and project members through python-gitlab: create, list, get, update with save(),
delete, members_all (inherited), sudo= as a member, and the errors. TAG is a unique path."""
import os

from common import connect, create_user, emit, error_of

tag = os.environ["TAG"]
gl = connect()
alice = create_user(gl, "alice")
bob = create_user(gl, "bob")
group = gl.groups.create({"name": f"Members {tag}", "path": tag})
sub = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": group.id})
project = gl.projects.create({"name": "proj", "namespace_id": sub.id})


def levels(members):
    return [[m.id, m.access_level] for m in members]


out = {"alice_id": alice.id, "bob_id": bob.id, "group_id": group.id, "project_id": project.id}

# group members; alice's membership is inherited by the subgroup and its project
created = group.members.create({"user_id": alice.id, "access_level": 30})
out["group_created"] = [created.id, created.access_level, created.username]
out["group_listed"] = levels(group.members.list(get_all=True))
member = group.members.get(alice.id)
member.access_level = 40
member.save()
out["group_after_save"] = group.members.get(alice.id).access_level
out["sub_direct"] = levels(sub.members.list(get_all=True))
out["sub_all"] = levels(sub.members_all.list(get_all=True))
out["project_all"] = levels(project.members_all.list(get_all=True))
out["project_all_alice"] = project.members_all.get(alice.id).access_level
out["alice_sees_project"] = gl.projects.get(project.id, sudo=alice.id).id
out["duplicate_group_member"] = error_of(lambda: group.members.create({"user_id": alice.id, "access_level": 30}))
member.delete()
out["group_after_delete"] = levels(group.members.list(get_all=True))
out["alice_after_delete"] = error_of(lambda: gl.projects.get(project.id, sudo=alice.id))

# project members
created = project.members.create({"user_id": bob.id, "access_level": 20})
out["project_created"] = [created.id, created.access_level]
out["project_listed"] = levels(project.members.list(get_all=True))
member = project.members.get(bob.id)
member.access_level = 30
member.save()
out["project_after_save"] = project.members.get(bob.id).access_level
out["bob_permissions"] = gl.projects.get(project.id, sudo=bob.id).permissions
out["duplicate_project_member"] = error_of(lambda: project.members.create({"user_id": bob.id, "access_level": 30}))
# a Developer may not add members
out["developer_adds"] = error_of(lambda: project.members.create({"user_id": alice.id, "access_level": 30}, sudo=bob.id))
out["missing_member"] = error_of(lambda: project.members.get(alice.id))
member.delete()
out["project_after_delete"] = levels(project.members.list(get_all=True))
out["bob_after_delete"] = error_of(lambda: gl.projects.get(project.id, sudo=bob.id))
emit(out)
