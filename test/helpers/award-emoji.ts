// Emoji reaction fixtures through the public API (POST .../award_emoji), and the paths of the
// award_emoji endpoints on issues, merge requests and project snippets and on their notes.
import { expect } from "vitest";
import type { ApiClient } from "./api.js";

/** The REST segment of an awardable: issues and merge requests by iid, snippets by id. */
export type AwardableKind = "issues" | "merge_requests" | "snippets";

export const AWARDABLE_KINDS: readonly AwardableKind[] = ["issues", "merge_requests", "snippets"];

/** The awardable_type GitLab reports for each kind. */
export const AWARDABLE_TYPE: Record<AwardableKind, string> = { issues: "Issue", merge_requests: "MergeRequest", snippets: "Snippet" };

/** Where reactions live: an issue/MR (by iid) or snippet (by id), optionally one of its notes. */
export interface AwardableTarget {
  projectId: number | string;
  kind: AwardableKind;
  /** iid of the issue or merge request, id of the snippet */
  ref: number;
  noteId?: number;
}

/** `/projects/:id/<kind>/:ref[/notes/:note_id]/award_emoji` */
export function awardEmojiPath(target: AwardableTarget): string {
  const note = target.noteId === undefined ? "" : `/notes/${target.noteId}`;
  return `/projects/${encodeURIComponent(String(target.projectId))}/${target.kind}/${target.ref}${note}/award_emoji`;
}

/** A reaction added by `by` (201 expected). */
export async function awardEmoji(by: ApiClient, target: AwardableTarget, name = "thumbsup"): Promise<any> {
  const res = await by.post(awardEmojiPath(target), { name });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
