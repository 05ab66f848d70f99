// Issue fixtures through the public API (POST /projects/:id/issues), the way a client makes them.
import { expect } from "vitest";
import type { ApiClient } from "./api.js";
import { uniq } from "./factories.js";

/** An issue created by `by` in the project (id or full path); a unique title unless overridden. */
export async function createIssue(by: ApiClient, projectId: number | string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await by.post(`/projects/${encodeURIComponent(String(projectId))}/issues`, { title: uniq("issue"), ...overrides });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
