// python-gitlab 3.12 and webhook delivery against the real server process (test/e2e/python/
// webhooks.py): a group hook pointing at a loopback receiver run here, an issue whose delivery the
// server's own worker sends, the hook's events read with gl.http_get, one resent and a test
// trigger fired with gl.http_post. The server runs with ALLOW_LOCAL_WEBHOOKS=true.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab webhooks e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab webhooks (SKIPPED: ${unavailable})` : "python-gitlab webhooks";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it("delivers an issue event, lists it, resends it and fires a test through the raw http_* calls", async () => {
    const out = await runPython("webhooks.py", suite.server, { RECEIVER_URL: receiver.url });
    expect(out.events, "the delivery was not recorded in time").toHaveLength(1);
    const [delivered, resent, tested] = receiver.requests;
    expect(receiver.requests).toHaveLength(3);
    expect(delivered!.path).toBe("/python");
    expect(delivered!.headers).toMatchObject({ "x-service-event": "Issue Hook", "x-service-token": "py-secret" });
    expect(delivered!.json).toMatchObject({
      object_kind: "issue", project: { id: out.project_id },
      object_attributes: { id: out.issue.id, iid: out.issue.iid, title: "Delivered to python", action: "open", url: out.issue.web_url },
    });

    const [event] = out.events;
    expect(event).toMatchObject({
      trigger: "issue_hooks", response_status: "200", request_data: delivered!.json,
      request_headers: { "X-Service-Token": "[REDACTED]", "Idempotency-Key": delivered!.headers["idempotency-key"] },
    });
    expect(out.resent).toEqual({ response_status: 200 });
    expect(resent!.headers["idempotency-key"]).toBe(delivered!.headers["idempotency-key"]);
    expect(resent!.json).toEqual(delivered!.json);

    expect(out.test).toEqual({ message: "201 Created" });
    expect(tested!.json).toMatchObject({ object_kind: "issue", object_attributes: { id: out.issue.id, action: "open" } });
    expect(out.after).toHaveLength(3);

    expect(out.errors).toEqual({
      unknown_event: { type: "GitlabHttpError", response_code: 404, error_message: "404 Not found" },
      bad_status: { type: "GitlabHttpError", response_code: 400, error_message: "status does not have a valid value" },
      no_data: { type: "GitlabHttpError", response_code: 422, error_message: "Ensure the project has merge requests." },
    });
  });
});
