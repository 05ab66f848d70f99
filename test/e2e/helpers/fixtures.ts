// Records created through the REST API of a running server, the way a client would set them up.
// Add groups, projects and members here as those resources land.
import { expect } from "vitest";
import { restClient, type RestClient } from "./rest.js";
import type { RunningServer } from "./server.js";

let sequence = 0;
export const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Date.now().toString(36)}_${++sequence}`;

export interface E2eUser {
  id: number;
  username: string;
  /** an `api` personal access token of the user */
  token: string;
  api: RestClient;
}

/** A user created by root, with an `api` personal access token. */
export async function createUser(server: RunningServer, overrides: Record<string, unknown> = {}): Promise<E2eUser> {
  const root = restClient(server);
  const username = (overrides.username as string) ?? uniqueName("user");
  const created = await root.post("/users", {
    username,
    name: `User ${username}`,
    email: `${username}@example.com`,
    password: "password-123456",
    skip_confirmation: true,
    ...overrides,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const token = await root.post(`/users/${created.body.id}/personal_access_tokens`, { name: "e2e", scopes: ["api"] });
  expect(token.status, JSON.stringify(token.body)).toBe(201);
  return { id: created.body.id, username, token: token.body.token, api: restClient(server, token.body.token) };
}
