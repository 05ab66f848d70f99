"""Instance-wide OAuth applications through python-gitlab 3.12: gl.applications create, list and
delete (manager and object), the secret renewed with gl.http_post, and the errors a client sees.
USER_TOKEN is a token of a user who is not an administrator; TAG makes the names unique."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
gl = connect()
as_user = connect(os.environ["USER_TOKEN"])


def view(app):
    return {key: getattr(app, key, None) for key in ("id", "application_id", "application_name", "callback_url", "confidential")}


out = {}
created = gl.applications.create({"name": f"py-{tag}", "redirect_uri": "https://py.example/cb", "scopes": "api read_user"})
out["created"] = view(created)
out["created_secret"] = created.secret
native = gl.applications.create({
    "name": f"py-native-{tag}",
    "redirect_uri": "com.example.app:/oauth\nurn:ietf:wg:oauth:2.0:oob",
    "scopes": "openid profile",
    "confidential": False,
})
out["native"] = view(native)

listed = gl.applications.list(get_all=True)
out["listed"] = [view(a) for a in listed if a.id in (created.id, native.id)]
out["listed_has_secret"] = any(hasattr(a, "secret") for a in listed)
out["paged"] = [a.id for a in gl.applications.list(per_page=1, page=1)]

renewed = gl.http_post(f"/applications/{created.id}/renew-secret")
out["renewed"] = renewed

out["bad_scope"] = error_of(lambda: gl.applications.create({"name": "x", "redirect_uri": "https://py.example/cb", "scopes": "api nope"}))
out["bad_uri"] = error_of(lambda: gl.applications.create({"name": "x", "redirect_uri": "javascript://alert()", "scopes": "api"}))
out["blank_scopes"] = error_of(lambda: gl.applications.create({"name": "x", "redirect_uri": "https://py.example/cb", "scopes": ""}))
out["user_creates"] = error_of(lambda: as_user.applications.create({"name": "x", "redirect_uri": "https://py.example/cb", "scopes": "api"}))
out["user_lists"] = error_of(lambda: as_user.applications.list())
out["user_deletes"] = error_of(lambda: as_user.applications.delete(created.id))

gl.applications.delete(created.id)
native.delete()
out["after_delete"] = [a.id for a in gl.applications.list(get_all=True) if a.id in (created.id, native.id)]
out["delete_missing"] = error_of(lambda: gl.applications.delete(created.id))
out["renew_missing"] = error_of(lambda: gl.http_post(f"/applications/{created.id}/renew-secret"))
emit(out)
