"""Group webhooks through python-gitlab 3.12: group.hooks.create/list/get, save() (which always
resends url), delete; the 204 key/value sub-resources with gl.http_request("put"/"delete", ...)
(gl.http_put would try to parse the empty 204 body). GROUP_ID is a group root owns;
OUTSIDER_TOKEN belongs to a user who is not a member; LOCAL_URL is a loopback URL (the server
runs with ALLOW_LOCAL_WEBHOOKS=true)."""
import os

from common import connect, emit, error_of

gl = connect()
outsider = connect(os.environ["OUTSIDER_TOKEN"])
group_id = int(os.environ["GROUP_ID"])
local_url = os.environ["LOCAL_URL"]
group = gl.groups.get(group_id)


def view(hook):
    keys = ("id", "url", "group_id", "push_events", "issues_events", "note_events", "enable_ssl_verification",
            "url_variables", "custom_headers", "alert_status", "push_events_branch_filter", "branch_filter_strategy")
    return {key: getattr(hook, key, None) for key in keys} | {"has_token": hasattr(hook, "token")}


out = {}
hook = group.hooks.create({
    "url": local_url + "/{path}", "token": "py-token", "issues_events": True,
    "url_variables": [{"key": "path", "value": "py-path"}],
    "custom_headers": [{"key": "X-Py", "value": "py-header"}],
})
out["created"] = view(hook)
out["listed"] = [view(h) for h in group.hooks.list(get_all=True)]
fetched = group.hooks.get(hook.id)
out["fetched"] = view(fetched)

# save() resends url: the token stays; branch filter per strategy
fetched.push_events = False
fetched.note_events = True
fetched.push_events_branch_filter = "release/*"
fetched.save()
out["saved"] = view(group.hooks.get(hook.id))

hooks_path = f"/groups/{group_id}/hooks/{hook.id}"
put_header = gl.http_request("put", f"{hooks_path}/custom_headers/X-Py-Two", post_data={"value": "two"})
put_variable = gl.http_request("put", f"{hooks_path}/url_variables/extra", post_data={"value": "e"})
delete_variable = gl.http_request("delete", f"{hooks_path}/url_variables/extra")
out["sub_statuses"] = [put_header.status_code, put_variable.status_code, delete_variable.status_code]
out["sub_bodies"] = [put_header.content.decode(), put_variable.content.decode()]
out["after_sub"] = view(group.hooks.get(hook.id))

out["errors"] = {
    "bad_url": error_of(lambda: group.hooks.create({"url": "ftp://8.8.8.8/"})),
    "metadata": error_of(lambda: group.hooks.create({"url": "http://169.254.169.254/latest/meta-data/"})),
    "bad_filter": error_of(lambda: group.hooks.create({
        "url": local_url, "branch_filter_strategy": "regex", "push_events_branch_filter": "(",
    })),
    "reserved_header": error_of(lambda: gl.http_request("put", f"{hooks_path}/custom_headers/X-Service-Token", post_data={"value": "x"})),
    "missing_header": error_of(lambda: gl.http_request("delete", f"{hooks_path}/custom_headers/X-Nope")),
    "outsider_list": error_of(lambda: outsider.groups.get(group_id, lazy=True).hooks.list()),
    "missing_hook": error_of(lambda: group.hooks.get(999999)),
}

group.hooks.delete(hook.id)
out["after_delete"] = [h.id for h in group.hooks.list(get_all=True)]
# the spec's idempotent DELETE: a second delete succeeds too
group.hooks.delete(hook.id)
out["second_delete"] = "ok"

kept = group.hooks.create({"url": local_url + "/kept", "token": "kept-token", "custom_headers": [{"key": "X-Kept", "value": "kept-header"}]})
out["kept_id"] = kept.id
emit(out)
