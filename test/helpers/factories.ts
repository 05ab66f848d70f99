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
