import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser } from "../helpers/factories.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});

describe("GET /user", () => {
  it("answers 401 without a token", async () => {
    const res = await t.anon.get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("returns the caller, with private fields", async () => {
    const alice = await createUser(t);
    const res = await alice.api.get("/user");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toMatchObject({ id: alice.id, username: alice.username, email: `${alice.username}@example.com`, is_admin: false });
  });
});

describe("POST /users", () => {
  it("is for administrators only", async () => {
    const bob = await createUser(t);
    const res = await bob.api.post("/users", { username: "x1", name: "x", email: "x1@example.com", password: "12345678" });
    expect(res.status).toBe(403);
    expect((await t.anon.post("/users", { username: "x2" })).status).toBe(401);
  });

  it("reports missing params and conflicts as GitLab does", async () => {
    const missing = await t.root.post("/users", { name: "n" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "email is missing, username is missing" });
    const carol = await createUser(t);
    const again = await t.root.post("/users", { username: carol.username.toUpperCase(), name: "c", email: "other@example.com", password: "password1" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Username has already been taken" });
  });
});
