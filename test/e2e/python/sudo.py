"""Acts as SUDO_USER_ID with the sudo= kwarg (a ?sudo= query parameter)."""
import os

from common import connect, emit, error_of

gl = connect()
target = os.environ["SUDO_USER_ID"]
as_target = gl.http_get("/user", sudo=target)
as_root = gl.http_get("/user")
emit({
    "as_target": {"id": as_target["id"], "username": as_target["username"]},
    "as_root": {"id": as_root["id"], "username": as_root["username"]},
    # the target is not an administrator, so under sudo the Features API is closed
    "features_as_target": error_of(lambda: gl.features.list(sudo=target)),
    "unknown_target": error_of(lambda: gl.http_get("/user", sudo="no_such_user_anywhere")),
})
