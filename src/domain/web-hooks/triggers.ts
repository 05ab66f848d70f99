// GitLab's hook names ("triggers", as recorded in the delivery history), the hook switch each one
// needs, and the event name of the X-Service-Event header (TriggerableHooks::AVAILABLE_TRIGGERS and
// WebHookService.hook_to_event).
import type { HookEvent } from "./switches.js";

export const TRIGGER_SWITCHES = {
  push_hooks: "push_events",
  tag_push_hooks: "tag_push_events",
  issue_hooks: "issues_events",
  confidential_issue_hooks: "confidential_issues_events",
  note_hooks: "note_events",
  confidential_note_hooks: "confidential_note_events",
  merge_request_hooks: "merge_requests_events",
  job_hooks: "job_events",
  pipeline_hooks: "pipeline_events",
  wiki_page_hooks: "wiki_page_events",
  deployment_hooks: "deployment_events",
  feature_flag_hooks: "feature_flag_events",
  release_hooks: "releases_events",
  member_hooks: "member_events",
  subgroup_hooks: "subgroup_events",
  emoji_hooks: "emoji_events",
  resource_access_token_hooks: "resource_access_token_events",
  milestone_hooks: "milestone_events",
  // group hooks only: a project created in or removed from the group (EE Projects::DestroyService)
  project_hooks: "project_events",
} as const satisfies Record<string, HookEvent>;

export type Trigger = keyof typeof TRIGGER_SWITCHES;

/** `push_hooks` -> "Push Hook", `merge_request_hooks` -> "Merge Request Hook" (singularize.titleize). */
export function eventHeaderOf(trigger: string): string {
  const words = trigger.replace(/_hooks$/, "_hook").split("_");
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ");
}

/** The trigger of a hook switch (`push_events` -> `push_hooks`). */
export function triggerOf(event: HookEvent): Trigger | null {
  const found = Object.entries(TRIGGER_SWITCHES).find(([, value]) => value === event);
  return found ? (found[0] as Trigger) : null;
}

/**
 * The :trigger values POST .../test/:trigger accepts (ProjectHook.triggers values): the spec's list
 * plus the three GitLab accepts but cannot test.
 */
export const TEST_TRIGGERS = [
  "push_events", "tag_push_events", "issues_events", "confidential_issues_events", "note_events",
  "confidential_note_events", "merge_requests_events", "job_events", "pipeline_events", "wiki_page_events",
  "deployment_events", "feature_flag_events", "releases_events", "emoji_events", "resource_access_token_events",
] as const;
export type TestTrigger = (typeof TEST_TRIGGERS)[number];
