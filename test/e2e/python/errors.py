"""How python-gitlab surfaces the server's errors; USER_TOKEN is a non-admin's token."""
import os

from common import connect, emit, error_of

gl = connect()
user = connect(os.environ["USER_TOKEN"])
emit({
    "bad_token": error_of(lambda: connect("not-a-valid-token-at-all-0000").auth()),
    "features_as_user": error_of(lambda: user.features.list()),
    "missing_user": error_of(lambda: gl.users.get(999999)),
    "create_without_username": error_of(lambda: gl.users.create({"name": "No Username"})),
})
