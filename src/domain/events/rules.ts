// What the events lists take: GitLab's event actions and target types (the values the API's
// `action` and `target_type` params accept), and how an event names its action.

/** Event.actions, in GitLab's order. */
export const EVENT_ACTIONS = [
  "created", "updated", "closed", "reopened", "pushed", "commented", "merged", "joined", "left", "destroyed", "expired", "approved",
] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** Event::TARGET_TYPES: the `target_type` values and the class each one selects. */
export const EVENT_TARGET_TYPES = {
  issue: "Issue",
  milestone: "Milestone",
  merge_request: "MergeRequest",
  note: "Note",
  project: "Project",
  snippet: "Snippet",
  user: "User",
  wiki: "WikiPage::Meta",
  design: "DesignManagement::Design",
} as const;
export type EventTargetTypeParam = keyof typeof EVENT_TARGET_TYPES;
export const EVENT_TARGET_TYPE_PARAMS = Object.keys(EVENT_TARGET_TYPES) as EventTargetTypeParam[];

/** The note classes a comment event names as its target. */
export const NOTE_TARGET_TYPES = ["Note", "DiscussionNote", "DiffNote"] as const;
export const isNoteTarget = (targetType: string | null) => (NOTE_TARGET_TYPES as readonly (string | null)[]).includes(targetType);

export interface EventFilters {
  action?: EventAction | null;
  target_type?: EventTargetTypeParam | null;
  /** events created before this day (UTC) began */
  before?: Date | null;
  /** events created after this day (UTC) ended */
  after?: Date | null;
  sort?: "asc" | "desc" | null;
}

/** What the rows say of a push, for its action name. */
interface ActionRow {
  action: string;
  targetType: string | null;
  pushAction: string | null;
}

/**
 * Event#action_name: a push says what it did to the ref, a merge is "accepted", a comment
 * "commented on", a project created without a target "created"; what GitLab names nothing else
 * (an issue created or reopened) is "opened".
 */
export function actionName(event: ActionRow): string {
  switch (event.action) {
    case "pushed":
      return event.pushAction === "created" ? "pushed new" : event.pushAction === "removed" ? "deleted" : "pushed to";
    case "closed":
      return "closed";
    case "merged":
      return "accepted";
    case "joined":
      return "joined";
    case "left":
      return "left";
    case "expired":
      return "removed due to membership expiration from";
    case "destroyed":
      return "destroyed";
    case "commented":
      return "commented on";
    case "approved":
      return "approved";
    case "created":
      return event.targetType === null ? "created" : "opened";
    default:
      return "opened";
  }
}
