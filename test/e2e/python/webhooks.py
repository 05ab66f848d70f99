"""Webhook delivery through python-gitlab 3.12 against the real server (whose worker delivers):
group.hooks.create with a loopback RECEIVER_URL, project.issues.create, then the hook's events
polled with gl.http_get until the delivery is recorded, one resent and a test trigger fired with
gl.http_post (python-gitlab has no managers for them), and the errors those raw calls raise."""
import os
import time

from common import connect, emit, error_of, unique

DELIVERY_TIMEOUT_S = 15
gl = connect()
receiver_url = os.environ["RECEIVER_URL"]

path = unique("py-wh").replace("_", "-")
group = gl.groups.create({"name": f"Webhooks {path}", "path": path})
project = gl.projects.create({"name": unique("pywh"), "namespace_id": group.id, "initialize_with_readme": True})
hook = group.hooks.create({"url": receiver_url + "/python", "issues_events": True, "push_events": False, "token": "py-secret"})
issue = project.issues.create({"title": "Delivered to python"})

events_path = f"/groups/{group.id}/hooks/{hook.id}/events"
deadline = time.time() + DELIVERY_TIMEOUT_S
events = []
while not events and time.time() < deadline:
    events = gl.http_get(events_path)
    if not events:
        time.sleep(0.2)

out = {"group_id": group.id, "project_id": project.id, "issue": {"id": issue.id, "iid": issue.iid, "web_url": issue.web_url}, "events": events}
if events:
    out["resent"] = gl.http_post(f"{events_path}/{events[0]['id']}/resend")
    out["test"] = gl.http_post(f"/groups/{group.id}/hooks/{hook.id}/test/issues_events")
    out["after"] = gl.http_get(events_path, query_data={"status": "successful"})
out["errors"] = {
    "unknown_event": error_of(lambda: gl.http_post(f"{events_path}/999999/resend")),
    "bad_status": error_of(lambda: gl.http_get(events_path, query_data={"status": "oops"})),
    "no_data": error_of(lambda: gl.http_post(f"/groups/{group.id}/hooks/{hook.id}/test/merge_requests_events")),
}
emit(out)
