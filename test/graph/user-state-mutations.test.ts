// The public graph's user state writes (userBlock, userUnblock, userBan, userUnban, userDeactivate,
// userActivate) over the domain functions REST POST /users/:id/<action> calls: administrators
// only, the user as the write left it, REST's refusals and `false` answers in `errors`, effects
// checked through REST and the user's own token.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";

let t: TestApp;
let plain: TestUser;
let admin2: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [plain, admin2] = await Promise.all([createUser(t), createUser(t, { admin: true })]);
});

const MUTATIONS = ["userBlock", "userUnblock", "userBan", "userUnban", "userDeactivate", "userActivate"] as const;
type Mutation = (typeof MUTATIONS)[number];

const mutation = (name: Mutation) => {
  const type = name[0]!.toUpperCase() + name.slice(1);
  return `mutation($input: ${type}Input!) { ${name}(input: $input) { errors user { id username state } } }`;
};

const change = (by: ApiClient, name: Mutation, user: { id: number }) => graph(by, mutation(name), { input: { id: gid("User", user.id) } });

/** The payload of a write that must answer without a top-level error. */
async function changed(name: Mutation, user: { id: number }, by: ApiClient = t.root) {
  return (await graphData(by, mutation(name), { input: { id: gid("User", user.id) } }))[name] as { errors: string[]; user: { state: string } | null };
}

const stateOf = async (user: { id: number }) => (await t.root.get(`/users/${user.id}`)).body.state as string;

describe("userBlock and userUnblock", () => {
  it("blocks an active user, whose token is then refused, and unblocks them", async () => {
    const user = await createUser(t);
    const blocked = await changed("userBlock", user);
    expect(blocked).toEqual({ errors: [], user: { id: gid("User", user.id), username: user.username, state: "blocked" } });
    expect(await stateOf(user)).toBe("blocked");
    expect((await user.api.get("/user")).body).toEqual({ message: "403 Forbidden - Your account has been blocked." });
    expect(await changed("userUnblock", user)).toMatchObject({ errors: [], user: { state: "active" } });
    expect((await user.api.get("/user")).status).toBe(200);
  });

  it("answers a user blocked already as it is (REST's null), and blocks a deactivated one", async () => {
    const user = await createUser(t);
    await changed("userBlock", user);
    expect(await changed("userBlock", user)).toMatchObject({ errors: [], user: { state: "blocked" } });
    const deactivated = await createUser(t);
    await changed("userDeactivate", deactivated);
    expect(await changed("userBlock", deactivated)).toMatchObject({ errors: [], user: { state: "blocked" } });
  });

  it("lists REST's refusals: the caller themself, LDAP-blocked users, deactivated users to unblock", async () => {
    expect(await changed("userBlock", admin2, admin2.api)).toEqual({ errors: ["The API initiating user cannot be blocked by the API"], user: null });
    expect(await stateOf(admin2)).toBe("active");
    const ldap = await createUser(t);
    await t.services.db.user.update({ where: { id: ldap.id }, data: { state: "ldap_blocked" } });
    expect(await changed("userBlock", ldap)).toEqual({ errors: ["LDAP blocked users cannot be modified by the API"], user: null });
    expect(await changed("userUnblock", ldap)).toEqual({ errors: ["LDAP blocked users cannot be unblocked by the API"], user: null });
    const deactivated = await createUser(t);
    await changed("userDeactivate", deactivated);
    expect(await changed("userUnblock", deactivated)).toEqual({ errors: ["Deactivated users cannot be unblocked by the API"], user: null });
    expect(await stateOf(deactivated)).toBe("deactivated");
  });

  it("lists REST's `false` for unblocking an active user as the state machine's message", async () => {
    const user = await createUser(t);
    expect((await t.root.post(`/users/${user.id}/unblock`)).body).toBe(false);
    expect(await changed("userUnblock", user)).toEqual({ errors: ['State cannot transition via "activate"'], user: null });
    expect(await stateOf(user)).toBe("active");
  });
});

describe("userBan and userUnban", () => {
  it("bans an active user (the token is refused as blocked) and unbans them", async () => {
    const user = await createUser(t);
    expect(await changed("userBan", user)).toMatchObject({ errors: [], user: { state: "banned" } });
    expect(await stateOf(user)).toBe("banned");
    expect((await user.api.get("/user")).status).toBe(403);
    expect(await changed("userUnban", user)).toMatchObject({ errors: [], user: { state: "active" } });
    expect((await user.api.get("/user")).status).toBe(200);
  });

  it("lists Users::BannedUserBaseService's refusals", async () => {
    const user = await createUser(t);
    expect(await changed("userUnban", user)).toEqual({ errors: ["You cannot unban active users."], user: null });
    await changed("userBlock", user);
    expect(await changed("userBan", user)).toEqual({ errors: ["You cannot ban blocked users."], user: null });
    expect(await stateOf(user)).toBe("blocked");
  });
});

describe("userDeactivate and userActivate", () => {
  it("deactivates a dormant user (the token is refused) and activates them again", async () => {
    const user = await createUser(t);
    expect(await changed("userDeactivate", user)).toMatchObject({ errors: [], user: { state: "deactivated" } });
    expect((await user.api.get("/user")).body.message).toMatch(/^403 Forbidden - Your account has been deactivated/);
    expect(await changed("userDeactivate", user)).toMatchObject({ errors: [], user: { state: "deactivated" } });
    expect(await changed("userActivate", user)).toMatchObject({ errors: [], user: { state: "active" } });
    expect((await user.api.get("/user")).status).toBe(200);
  });

  it("lists the refusals: a user active lately, blocked users both ways, an active user to activate", async () => {
    const user = await createUser(t);
    await user.api.get("/user"); // token use is the user's activity
    expect(await changed("userDeactivate", user)).toEqual({
      errors: ["The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated"], user: null,
    });
    expect(await changed("userActivate", user)).toEqual({ errors: ['State cannot transition via "activate"'], user: null });
    await changed("userBlock", user);
    expect(await changed("userDeactivate", user)).toEqual({ errors: ["Error occurred. A blocked user cannot be deactivated"], user: null });
    expect(await changed("userActivate", user)).toEqual({ errors: ["A blocked user must be unblocked to be activated"], user: null });
    expect(await stateOf(user)).toBe("blocked");
  });
});

describe("who may change states", () => {
  it.each(MUTATIONS)("%s: not available to anonymous callers, users (themselves too), or for unknown ids", async (name) => {
    const user = await createUser(t);
    expectNotAvailable(await change(t.anon, name, user), name);
    expectNotAvailable(await change(plain.api, name, user), name);
    expectNotAvailable(await change(user.api, name, user), name);
    expectNotAvailable(await change(t.root, name, { id: 999_999 }), name);
    expectNotAvailable(await graph(t.root, mutation(name), { input: { id: gid("Project", user.id) } }), name);
    expect(await stateOf(user)).toBe("active");
  });

  it("is refused to an administrator's read_api token", async () => {
    const readApiAdmin = await createUser(t, { admin: true }, ["read_api"]);
    const user = await createUser(t);
    const res = await change(readApiAdmin.api, "userBlock", user);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
    expect(await stateOf(user)).toBe("active");
  });
});
