// Approval fixtures through the public API: project approval settings, project and merge request
// rules, approvals, and project access token bots (the only callers of reset_approvals).
import { expect } from "vitest";
import type { ApiClient } from "./api.js";
import type { TestApp } from "./app.js";

const enc = (value: string | number) => encodeURIComponent(String(value));

export const projectPath = (projectId: number | string) => `/projects/${enc(projectId)}`;
export const mrPath = (projectId: number | string, iid: number) => `${projectPath(projectId)}/merge_requests/${iid}`;

/** POST /projects/:id/approvals (Maintainer or above). */
export async function setApprovalSettings(by: ApiClient, projectId: number | string, settings: Record<string, unknown>): Promise<any> {
  const res = await by.post(`${projectPath(projectId)}/approvals`, settings);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** POST /projects/:id/approval_rules (Maintainer or above). */
export async function createProjectRule(by: ApiClient, projectId: number | string, rule: Record<string, unknown>): Promise<any> {
  const res = await by.post(`${projectPath(projectId)}/approval_rules`, rule);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** POST .../merge_requests/:iid/approval_rules */
export async function createMergeRequestRule(by: ApiClient, projectId: number | string, iid: number, rule: Record<string, unknown>): Promise<any> {
  const res = await by.post(`${mrPath(projectId, iid)}/approval_rules`, rule);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** POST .../approve, expected to succeed. */
export async function approve(by: ApiClient, projectId: number | string, iid: number, body: Record<string, unknown> = {}): Promise<any> {
  const res = await by.post(`${mrPath(projectId, iid)}/approve`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** GET .../approvals (the approval status of the MR). */
export async function approvalStatus(by: ApiClient, projectId: number | string, iid: number): Promise<any> {
  const res = await by.get(`${mrPath(projectId, iid)}/approvals`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** GET .../approval_state */
export async function approvalState(by: ApiClient, projectId: number | string, iid: number): Promise<any> {
  const res = await by.get(`${mrPath(projectId, iid)}/approval_state`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A project access token (its bot user is a member of the project at `accessLevel`); returns the bot's client. */
export async function projectBot(t: TestApp, by: ApiClient, projectId: number | string, accessLevel = 30): Promise<{ id: number; api: ApiClient }> {
  const res = await by.post(`${projectPath(projectId)}/access_tokens`, { name: "bot", scopes: ["api"], access_level: accessLevel });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.user_id, api: t.client(res.body.token) };
}

/** The ids of a list of users (or of `{user}` entries), in order. */
export const idsOf = (list: any[]) => list.map((entry) => (entry.user ? entry.user.id : entry.id));
