"""Creates a user as admin, gives it a personal access token, and uses that token."""
from common import connect, create_token, create_user, emit

gl = connect()
user = create_user(gl)
fetched = gl.users.get(user.id)
token = create_token(gl, user.id)
as_user = connect(token.token)
as_user.auth()
emit({
    "created": {"id": user.id, "username": user.username, "state": user.state},
    "fetched": {"id": fetched.id, "username": fetched.username},
    "token": {"name": token.name, "scopes": token.scopes, "user_id": token.user_id, "active": token.active},
    "current_user": {"id": as_user.user.id, "username": as_user.user.username, "is_admin": as_user.user.is_admin},
})
