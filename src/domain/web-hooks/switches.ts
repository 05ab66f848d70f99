// A webhook's event switches (one Boolean column each on WebHook), in the order GitLab's entities
// list them: Hook's, then GroupHook's. Which of them an owner may set: web-hooks/owners.ts.
import type { WebHook } from "../../generated/prisma/client.js";

export const HOOK_EVENTS = [
  "push_events", "tag_push_events", "merge_requests_events", "repository_update_events", "issues_events",
  "confidential_issues_events", "note_events", "confidential_note_events", "pipeline_events", "wiki_page_events",
  "job_events", "deployment_events", "feature_flag_events", "releases_events", "milestone_events", "subgroup_events",
  "emoji_events", "resource_access_token_events", "member_events", "vulnerability_events", "project_events",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The switches of GitLab's base Hook entity; the owner's entity lists its own after them. */
export const BASE_HOOK_EVENTS = HOOK_EVENTS.slice(0, 4);

type EventColumn = { [K in keyof WebHook]: WebHook[K] extends boolean ? K : never }[keyof WebHook];
/** `push_events` -> the WebHook column `pushEvents`. */
export const hookEventColumn = (event: HookEvent) => event.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase()) as EventColumn;
