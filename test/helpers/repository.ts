// Repository fixtures through the public API: branches, commits of file actions and protected
// branches.
import { expect } from "vitest";
import type { ApiClient } from "./api.js";

const enc = (value: string | number) => encodeURIComponent(String(value));

export interface FileActionFixture {
  action: string;
  file_path?: string;
  previous_path?: string;
  content?: string;
  [key: string]: unknown;
}

/** POST /projects/:id/repository/branches; `ref` defaults to main. */
export async function createBranch(by: ApiClient, projectId: number | string, branch: string, ref = "main"): Promise<any> {
  const res = await by.post(`/projects/${enc(projectId)}/repository/branches`, { branch, ref });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** POST /projects/:id/repository/commits with the given actions. */
export async function commitFiles(
  by: ApiClient,
  projectId: number | string,
  branch: string,
  actions: FileActionFixture[],
  extra: Record<string, unknown> = {},
): Promise<any> {
  const res = await by.post(`/projects/${enc(projectId)}/repository/commits`, {
    branch,
    commit_message: `Change ${actions.map((a) => a.file_path).join(", ")}`,
    actions,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A commit creating one file (a fresh name unless given). */
export function commitFile(by: ApiClient, projectId: number | string, branch: string, filePath = `file-${Math.random().toString(36).slice(2)}.txt`) {
  return commitFiles(by, projectId, branch, [{ action: "create", file_path: filePath, content: "content\n" }]);
}

/** POST /projects/:id/protected_branches. */
export async function protectBranch(by: ApiClient, projectId: number | string, name: string, params: Record<string, unknown> = {}): Promise<any> {
  const res = await by.post(`/projects/${enc(projectId)}/protected_branches`, { name, ...params });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
