// Fixtures for project snippets and notes, built through the public API the way a client would.
import { expect } from "vitest";
import type { ApiClient } from "./api.js";
import { uniq } from "./factories.js";

const projectPath = (projectId: number | string) => `/projects/${encodeURIComponent(String(projectId))}`;

/**
 * A project snippet created through POST /projects/:id/snippets by `by` (Reporter or above):
 * public, one file `snippet.rb`, unless overridden (`files` replaces `file_name` + `content`).
 */
export async function createSnippet(by: ApiClient, projectId: number | string, overrides: Record<string, unknown> = {}): Promise<any> {
  const defaults = overrides.files ? {} : { file_name: "snippet.rb", content: "puts 'hello'" };
  const res = await by.post(`${projectPath(projectId)}/snippets`, { title: uniq("snippet"), visibility: "public", ...defaults, ...overrides });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The REST segment of a noteable: issues and merge requests by iid, snippets by id. */
export type NoteableKind = "issues" | "merge_requests" | "snippets";

/**
 * A note created through POST /projects/:id/<kind>/:parent/notes by `by`; `parent` is the iid of an
 * issue or merge request, or the id of a snippet. `overrides` may set `body`, `internal`, ...
 */
export async function createNote(
  by: ApiClient,
  projectId: number | string,
  kind: NoteableKind,
  parent: number,
  overrides: Record<string, unknown> = {},
): Promise<any> {
  const res = await by.post(`${projectPath(projectId)}/${kind}/${parent}/notes`, { body: `Note ${uniq("n")}`, ...overrides });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
