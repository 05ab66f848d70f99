// Merge request fixtures through the public API, the way a client makes them: the source branch
// first (POST /projects/:id/repository/branches), then POST /projects/:id/merge_requests.
import { expect } from "vitest";
import type { ApiClient } from "./api.js";
import { uniq } from "./factories.js";

const projectPath = (projectId: number | string) => `/projects/${encodeURIComponent(String(projectId))}`;

/** A branch created by `by` (Developer or above) from `ref` (the default branch "main" unless given). */
export async function createBranch(by: ApiClient, projectId: number | string, branch: string, ref = "main"): Promise<any> {
  const res = await by.post(`${projectPath(projectId)}/repository/branches`, { branch, ref });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/**
 * A merge request opened by `by` (Developer or above) in the project (id or full path): from a
 * new branch (unique name unless `source_branch` is given) into "main", with a unique title.
 * The source branch is created unless `createSourceBranch: false`, with one commit (a new file)
 * on top of the target, so that the merge request has something to merge (GitLab's
 * commits_status check refuses one without commits). Other fields go into the POST body as they
 * are (description, assignee_ids, reviewer_ids, labels, ...).
 */
export async function createMergeRequest(
  by: ApiClient,
  projectId: number | string,
  overrides: Record<string, unknown> & { source_branch?: string; target_branch?: string; createSourceBranch?: boolean } = {},
): Promise<any> {
  const { createSourceBranch = true, ...fields } = overrides;
  const source = fields.source_branch ?? uniq("feature");
  const target = fields.target_branch ?? "main";
  if (createSourceBranch) await commitTo(by, projectId, source, undefined, target);
  const res = await by.post(`${projectPath(projectId)}/merge_requests`, {
    title: uniq("MR"),
    ...fields,
    source_branch: source,
    target_branch: target,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/**
 * A commit on `branch` through POST /projects/:id/repository/commits (one new file); returns the
 * commit. With `startBranch` the branch is created there first.
 */
export async function commitTo(by: ApiClient, projectId: number | string, branch: string, filePath = `${uniq("file")}.txt`, startBranch?: string): Promise<any> {
  const res = await by.post(`${projectPath(projectId)}/repository/commits`, {
    branch,
    ...(startBranch ? { start_branch: startBranch } : {}),
    commit_message: `Add ${filePath}`,
    actions: [{ action: "create", file_path: filePath, content: "content\n" }],
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/**
 * Writes `content` to `file` on `branch` through POST .../repository/commits (created from
 * `startBranch` when given; the file created or updated as it exists there); returns the commit.
 */
export async function writeFile(by: ApiClient, projectId: number | string, branch: string, file: string, content: string, startBranch?: string): Promise<any> {
  const ref = encodeURIComponent(startBranch ?? branch);
  const exists = (await by.get(`${projectPath(projectId)}/repository/files/${encodeURIComponent(file)}?ref=${ref}`)).status === 200;
  const res = await by.post(`${projectPath(projectId)}/repository/commits`, {
    branch, ...(startBranch ? { start_branch: startBranch } : {}), commit_message: `Write ${file}`,
    actions: [{ action: exists ? "update" : "create", file_path: file, content }],
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
