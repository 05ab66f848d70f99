"""The user lifecycle as an administrator's python-gitlab script drives it: save() with an avatar,
block/unblock, ban/unban, deactivate/activate (the returned booleans and the local state), the
blocked user's token refused, memberships, personal projects, and deletion to the ghost user."""
import base64

import gitlab

from common import connect, create_token, create_user, emit, error_of

# a 1x1 PNG
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)

gl = connect()
user = create_user(gl, "life")
token = create_token(gl, user.id)
as_user = connect(token.token)
as_user.auth()

user.bio = "saved by python"
user.avatar = PNG
user.save()
saved = gl.users.get(user.id)

project = as_user.projects.create({"name": "Home", "visibility": "public", "initialize_with_readme": True})
issue = project.issues.create({"title": "left behind"})
user_projects = [p.id for p in gl.users.get(user.id, lazy=True).projects.list()]
memberships = [[m.source_type, m.source_id, m.access_level] for m in gl.users.get(user.id, lazy=True).memberships.list()]

block = user.block()
state_after_block = user.state
block_again = user.block()
blocked_call = error_of(lambda: connect(token.token).auth())
unblock = user.unblock()
ban = user.ban()
unban = user.unban()
refused_deactivate = error_of(lambda: user.deactivate())  # the user's token was used: not dormant
dormant = create_user(gl, "dormant")
deactivate = dormant.deactivate()
activate = dormant.activate()
activate_again = dormant.activate()

other = create_user(gl, "gone")
other_token = create_token(gl, other.id)
shared = gl.projects.get(project.id)
shared.members.create({"user_id": other.id, "access_level": 30})
gone_issue = connect(other_token.token).projects.get(project.id).issues.create({"title": "by a leaver"})
gl.users.delete(other.id)
after_delete = gl.projects.get(project.id).issues.get(gone_issue.iid)

emit({
    "saved": {"bio": saved.bio, "avatar_url": saved.avatar_url},
    "user_projects": user_projects,
    "project_id": project.id,
    "memberships": memberships,
    "block": block, "state_after_block": state_after_block, "block_again": block_again,
    "blocked_call": blocked_call,
    "unblock": unblock, "ban": ban, "unban": unban,
    "refused_deactivate": refused_deactivate,
    "deactivate": deactivate, "activate": activate, "activate_again": activate_again,
    "state_at_end": gl.users.get(user.id).state,
    "deleted_lookup": error_of(lambda: gl.users.get(other.id)),
    "ghost_author": after_delete.author["username"],
})
