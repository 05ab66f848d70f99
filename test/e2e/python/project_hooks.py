"""Project webhooks through python-gitlab 3.12 against the real server (whose worker delivers):
project.hooks.create/list/get, save() (which resends url, so the token stays), the 204 key/value
sub-resources with gl.http_request, a push (project.commits.create), a merge request and a note on
it delivered to the loopback RECEIVER_URL, the hook's events polled with gl.http_get, the errors,
and delete. OUTSIDER_TOKEN belongs to a user who is not a member of the project."""
import os
import time

from common import connect, emit, error_of, unique

DELIVERY_TIMEOUT_S = 15
gl = connect()
outsider = connect(os.environ["OUTSIDER_TOKEN"])
receiver_url = os.environ["RECEIVER_URL"]


def view(hook):
    keys = ("id", "url", "project_id", "push_events", "merge_requests_events", "note_events", "issues_events",
            "url_variables", "custom_headers", "alert_status", "push_events_branch_filter")
    return {key: getattr(hook, key, None) for key in keys} | {"has_token": hasattr(hook, "token")}


project = gl.projects.create({"name": unique("pyph"), "initialize_with_readme": True})
hook = project.hooks.create({
    "url": receiver_url + "/{path}", "token": "py-secret", "merge_requests_events": True, "note_events": True,
    "url_variables": [{"key": "path", "value": "python"}], "custom_headers": [{"key": "X-Py", "value": "py-header"}],
})
out = {"project_id": project.id, "created": view(hook), "listed": [h.id for h in project.hooks.list(get_all=True)]}

fetched = project.hooks.get(hook.id)
fetched.push_events_branch_filter = "feat*"
fetched.issues_events = True
fetched.save()
out["saved"] = view(project.hooks.get(hook.id))

hook_path = f"/projects/{project.id}/hooks/{hook.id}"
out["sub_statuses"] = [
    gl.http_request("put", f"{hook_path}/custom_headers/X-Py-Two", post_data={"value": "two"}).status_code,
    gl.http_request("delete", f"{hook_path}/custom_headers/X-Py-Two").status_code,
]

project.commits.create({
    "branch": "feature", "start_branch": "main", "commit_message": "Add a file",
    "actions": [{"action": "create", "file_path": "py.txt", "content": "py\n"}],
})
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "From python"})
mr.notes.create({"body": "A note from python"})

deadline = time.time() + DELIVERY_TIMEOUT_S
events = []
while len(events) < 3 and time.time() < deadline:
    events = gl.http_get(f"{hook_path}/events")
    if len(events) < 3:
        time.sleep(0.2)
out["events"] = [event["trigger"] for event in events]

out["errors"] = {
    "bad_url": error_of(lambda: project.hooks.create({"url": "ftp://8.8.8.8/"})),
    "outsider_list": error_of(lambda: outsider.projects.get(project.id, lazy=True).hooks.list()),
    "missing_hook": error_of(lambda: project.hooks.get(999999)),
}
project.hooks.delete(hook.id)
out["after_delete"] = [h.id for h in project.hooks.list(get_all=True)]
emit(out)
