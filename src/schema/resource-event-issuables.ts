// The issuables whose resource events (label, milestone) the API lists, and how those routes find
// them: as notes do (GitLab's find_noteable), so one the caller may not read, or a confidential
// issue hidden from them, is 404 Not found.
import type { Context } from "../context.js";
import { findNoteable } from "../domain/notes/queries.js";

export const EVENT_ISSUABLE_KINDS = [
  { type: "Issue", stem: "issue", segment: "issues", param: "issue_iid" },
  { type: "MergeRequest", stem: "mergeRequest", segment: "merge_requests", param: "merge_request_iid" },
] as const;

export type EventIssuableKind = (typeof EVENT_ISSUABLE_KINDS)[number];

/** The route's issuable (`:id` and the kind's iid param) with the caller's access to its project. */
export async function findEventIssuable(ctx: Context, kind: EventIssuableKind, args: Record<string, unknown>) {
  const { id, access } = await findNoteable(ctx, kind.type, String(args.id), args[kind.param] as number);
  return { type: kind.type, id, access };
}

/** GitLab's event_id is a string: what is not a number names no event (404 Not found). */
export const eventId = (value: string) => (/^\d+$/.test(value) ? Number(value) : Number.NaN);
