// Fixtures built through the public API, the way a client would.
import { expect } from "vitest";
import type { ApiClient } from "./api.js";
import type { TestApp } from "./app.js";

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(++sequence).toString(36)}`;

export interface TestUser {
  id: number;
  username: string;
  token: string;
  api: ApiClient;
}

/** A user with an `api` personal access token (created by root). */
export async function createUser(t: TestApp, overrides: Record<string, unknown> = {}, scopes = ["api"]): Promise<TestUser> {
  const username = (overrides.username as string) ?? `user_${next()}`;
  const created = await t.root.post("/users", {
    username,
    name: `User ${username}`,
    email: `${username}@example.com`,
    password: "password-123456",
    ...overrides,
  });
  expect(created.status, created.text).toBe(201);
  const token = await t.root.post(`/users/${created.body.id}/personal_access_tokens`, { name: "test", scopes });
  expect(token.status, token.text).toBe(201);
  return { id: created.body.id, username, token: token.body.token, api: t.client(token.body.token) };
}

/** A fresh, unique path segment ("g-lx2a3b1"). */
export const uniq = (prefix = "x") => `${prefix}-${next()}`;

/** A group created through POST /groups by `by` (who becomes its Owner); private unless overridden. */
export async function createGroup(by: ApiClient, overrides: Record<string, unknown> = {}): Promise<any> {
  const path = (overrides.path as string) ?? uniq("g");
  const res = await by.post("/groups", { name: `Group ${path}`, path, visibility: "private", ...overrides });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/**
 * A project created through POST /projects by `by`; private, in `by`'s namespace unless overridden,
 * with a README on "main" (`initialize_with_readme`: most tests need a branch; pass false for an
 * empty repository, as GitLab makes without it).
 */
export async function createProject(by: ApiClient, overrides: Record<string, unknown> = {}): Promise<any> {
  const path = (overrides.path as string) ?? uniq("p");
  const res = await by.post("/projects", { name: `Project ${path}`, path, visibility: "private", initialize_with_readme: true, ...overrides });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Adds `userId` to a group or project (`kind` "groups" | "projects") through the members API. */
export async function addMember(by: ApiClient, kind: "groups" | "projects", id: number | string, userId: number, accessLevel: number): Promise<any> {
  const res = await by.post(`/${kind}/${encodeURIComponent(String(id))}/members`, { user_id: userId, access_level: accessLevel });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
