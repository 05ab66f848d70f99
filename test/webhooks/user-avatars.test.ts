// A user's uploaded avatar is the one hook payloads name (User#hook_attrs avatar_url), as the REST
// entities do; users without one keep Gravatar's URL. A project hook on a real loopback receiver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { redPng } from "../helpers/images.js";
import { gitbeakerForm } from "../helpers/multipart.js";
import { startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser, withAvatar: TestUser;
let project: any;

beforeAll(async () => {
  bed = await startTestbed();
  [owner, withAvatar] = await Promise.all([createUser(bed.t), createUser(bed.t)]);
  project = await createProject(owner.api, { visibility: "private" });
  await addMember(owner.api, "projects", project.id, withAvatar.id, 30);
  const hook = await bed.t.root.post(`/projects/${project.id}/hooks`, { url: `${bed.receiver.url}/issues`, push_events: false, issues_events: true });
  expect(hook.status, hook.text).toBe(201);
});

afterAll(() => bed.close());

describe("user avatars in hook payloads", () => {
  it("names the uploaded avatar of the acting user and of assignees; Gravatar for the others", async () => {
    const uploaded = await bed.t.root.put(`/users/${withAvatar.id}`, undefined, { form: gitbeakerForm({}, redPng(), "me.png", "image/png", "avatar") });
    expect(uploaded.status, uploaded.text).toBe(200);
    const avatarUrl = uploaded.body.avatar_url;
    expect(avatarUrl).toMatch(/^http:\/\/forgeline\.test\/.*me\.png$/);
    const issue = await withAvatar.api.post(`/projects/${project.id}/issues`, { title: "With an avatar", assignee_ids: [withAvatar.id, owner.id] });
    expect(issue.status, issue.text).toBe(201);
    await bed.drain();
    const [delivery] = bed.receiver.requests.filter((r) => r.path === "/issues");
    expect(delivery!.json.user).toMatchObject({ id: withAvatar.id, avatar_url: avatarUrl });
    const assignees = Object.fromEntries(delivery!.json.assignees.map((a: any) => [a.id, a.avatar_url]));
    expect(assignees[withAvatar.id]).toBe(avatarUrl);
    expect(assignees[owner.id]).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\//);
  });
});
