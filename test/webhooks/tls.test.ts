// TLS verification per hook (enable_ssl_verification): an HTTPS receiver on loopback with a
// self-signed certificate is refused while verification is on and reached when it is off.
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { createHook, deliveriesOf, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser;
let group: any;
let server: Server;
let httpsUrl: string;
const received: string[] = [];

beforeAll(async () => {
  bed = await startTestbed();
  owner = await createUser(bed.t);
  group = await createGroup(owner.api);
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push(body);
      res.writeHead(200).end("OK");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  httpsUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await bed.close();
});

async function memberEvent() {
  const user = await createUser(bed.t);
  await addMember(owner.api, "groups", group.id, user.id, 30);
}

describe("enable_ssl_verification", () => {
  it("refuses a self-signed certificate while verification is on", async () => {
    const hook = await createHook(bed, group.id, { url: httpsUrl, member_events: true, enable_ssl_verification: true });
    await memberEvent();
    await bed.worker({ maxAttempts: 1 }).runOnce();
    expect(received).toHaveLength(0);
    const [delivery] = await deliveriesOf(bed, hook.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
    const events = await bed.t.root.get(`/groups/${group.id}/hooks/${hook.id}/events`);
    expect(events.body[0]).toMatchObject({ url: httpsUrl, response_status: "internal error" });
  });

  it("delivers to the same receiver once verification is off", async () => {
    const hook = await createHook(bed, group.id, { url: httpsUrl, member_events: true, enable_ssl_verification: false });
    await memberEvent();
    await bed.worker().runOnce();
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!)).toMatchObject({ event_name: "user_add_to_group", group_id: group.id });
    expect((await deliveriesOf(bed, hook.id))[0]).toMatchObject({ status: "done" });
  });
});
