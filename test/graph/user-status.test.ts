// The public graph's user status: UserCore.status (GitLab's UserStatus type, gone once expired) on
// currentUser, user(username:) and the people of a page, and userSetStatus over the domain
// function REST PUT /user/status calls.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { expectNotAvailable, graph, graphData } from "../helpers/graph.js";

let t: TestApp;
let alice: TestUser, bob: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([createUser(t), createUser(t)]);
});

const STATUS = "status { emoji message messageHtml availability clearStatusAt }";
const SET = `mutation($input: UserSetStatusInput!) { userSetStatus(input: $input) { errors ${STATUS} } }`;

describe("UserCore.status", () => {
  it("shows a user's status to another user and null without one", async () => {
    await bob.api.put("/user/status", { emoji: "coffee", message: "On :coffee:", availability: "busy" });
    const query = `query($a: String!, $b: String!) { a: user(username: $a) { ${STATUS} } b: user(username: $b) { ${STATUS} } }`;
    const data = await graphData(alice.api, query, { a: alice.username, b: bob.username });
    expect(data.a.status).toBeNull();
    expect(data.b.status).toEqual({
      emoji: "coffee",
      message: "On :coffee:",
      messageHtml: 'On <gl-emoji title="hot beverage" data-name="coffee">\u2615</gl-emoji>',
      availability: "BUSY",
      clearStatusAt: null,
    });
  });

  it("is null once past its clearStatusAt", async () => {
    const user = await createUser(t);
    await user.api.put("/user/status", { message: "soon gone", clear_status_after: "30_minutes" });
    await t.services.db.userStatus.update({ where: { userId: user.id }, data: { clearStatusAt: new Date(Date.now() - 1) } });
    expect((await graphData(user.api, `{ currentUser { ${STATUS} } }`)).currentUser.status).toBeNull();
  });
});

describe("userSetStatus", () => {
  it("sets the caller's status, read back by REST", async () => {
    const user = await createUser(t);
    const data = await graphData(user.api, SET, { input: { message: "Deep work", availability: "BUSY", clearStatusAfter: "3_hours" } });
    expect(data.userSetStatus.errors).toEqual([]);
    expect(data.userSetStatus.status).toMatchObject({ emoji: "speech_balloon", message: "Deep work", availability: "BUSY" });
    const rest = (await user.api.get("/user/status")).body;
    expect(rest).toMatchObject({ emoji: "speech_balloon", message: "Deep work", availability: "busy" });
    expect(Date.parse(data.userSetStatus.status.clearStatusAt)).toBe(Date.parse(rest.clear_status_at));
  });

  it("removes the status given nothing, answering status null", async () => {
    const user = await createUser(t);
    await user.api.put("/user/status", { message: "here" });
    const data = await graphData(user.api, SET, { input: {} });
    expect(data.userSetStatus).toEqual({ errors: [], status: null });
    expect((await user.api.get("/user/status")).body.message).toBeNull();
  });

  it("answers the model's validation errors in errors and keeps the status", async () => {
    const user = await createUser(t);
    await user.api.put("/user/status", { message: "kept" });
    const res = await graph(user.api, SET, { input: { emoji: "definitely_not_an_emoji", message: "x".repeat(101) } });
    expect(res.body).toEqual({
      data: { userSetStatus: { errors: ["emoji is not a valid emoji name", "message is too long (maximum is 100 characters)"], status: null } },
    });
    expect((await user.api.get("/user/status")).body.message).toBe("kept");
  });

  it("refuses anonymous callers", async () => {
    expectNotAvailable(await graph(t.anon, SET, { input: { message: "x" } }), "userSetStatus");
  });
});
