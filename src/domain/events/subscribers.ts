// Contribution events (GitLab's EventCreateService), recorded from the domain events inside the
// transaction of the change: an issue or merge request opened (created), closed, reopened, a merge
// request merged or approved, a comment left (commented, on the note), a member who joined or left
// a project, a project created, and each push of a branch or tag (pushed, with its payload; one
// bulk event for more refs of a kind and action than push_event_activities_limit). GitLab records
// no event for group memberships, for the personal project's own Owner, for system notes, or when a
// project or group is deleted (the project's events go with it). Nothing is recorded for what
// happened before this table existed.
import { BLANK_SHA, subscribe, type PushEvent, type TagPushEvent, type Tx } from "../shared/events.js";
import type { EventAction } from "./rules.js";

/** GitLab's push_event_activities_limit (application setting, default 3). */
export const PUSH_EVENT_ACTIVITIES_LIMIT = 3;

interface NewEvent {
  projectId: number;
  authorId: number;
  action: EventAction;
  targetType?: string | null;
  targetId?: number | null;
}

const record = (tx: Tx, event: NewEvent, push: PushColumns = {}) =>
  tx.event.create({ data: { targetType: null, targetId: null, ...event, ...push }, select: { id: true } });

const ISSUE_ACTIONS = { open: "created", close: "closed", reopen: "reopened" } as const;
const MERGE_REQUEST_ACTIONS = { open: "created", close: "closed", reopen: "reopened", merge: "merged" } as const;

subscribe("issue", async (tx, event) => {
  if (event.action === "update") return;
  await record(tx, { projectId: event.projectId, authorId: event.actorId, action: ISSUE_ACTIONS[event.action], targetType: "Issue", targetId: event.issue.id });
});

subscribe("merge_request", async (tx, event) => {
  if (event.action === "update") return;
  const action = MERGE_REQUEST_ACTIONS[event.action];
  await record(tx, { projectId: event.projectId, authorId: event.actorId, action, targetType: "MergeRequest", targetId: event.mergeRequestId });
});

// MergeRequests::ApprovalService: one `approved` event by the approver for every approval given
subscribe("approval", async (tx, event) => {
  if ((event.action !== "approval" && event.action !== "approved") || event.actorId === null) return;
  await record(tx, { projectId: event.projectId, authorId: event.actorId, action: "approved", targetType: "MergeRequest", targetId: event.mergeRequestId });
});

// Notes::CreateService: the comment is the target, named by its class (Note, DiscussionNote, DiffNote)
subscribe("note", async (tx, event) => {
  if (event.action !== "create") return;
  const note = await tx.note.findUnique({ where: { id: event.noteId }, select: { id: true, type: true, system: true } });
  if (!note || note.system) return;
  await record(tx, { projectId: event.projectId, authorId: event.actorId, action: "commented", targetType: note.type ?? "Note", targetId: note.id });
});

// ProjectMember's hooks: the member joined or left (GroupMember records none); the author is the member
subscribe("member", async (tx, event) => {
  if (event.source !== "project" || event.action === "update") return;
  await record(tx, { projectId: event.sourceId, authorId: event.userId, action: event.action === "create" ? "joined" : "left" });
});

subscribe("project", async (tx, event) => {
  if (event.action !== "create" || event.actorId === null) return;
  await record(tx, { projectId: event.project.id, authorId: event.actorId, action: "created" });
});

subscribe("push", async (tx, event) => {
  await recordPush(tx, event, "branch", event.branch, async () => {
    const { total, newestMessage } = await event.counted();
    return { count: total, title: newestMessage };
  });
});

subscribe("tag_push", async (tx, event) => {
  await recordPush(tx, event, "tag", event.tag, async () => {
    const commit = await event.commit();
    return { count: commit ? 1 : 0, title: commit?.message ?? null };
  });
});

type PushColumns = Partial<Record<"pushAction" | "pushRefType" | "pushRef" | "pushCommitFrom" | "pushCommitTo" | "pushCommitTitle", string | null>> &
  Partial<Record<"pushCommitCount" | "pushRefCount", number | null>>;

/**
 * PushEventPayloadService (one ref) or BulkPushEventPayloadService (a group over the limit, once,
 * on its first ref: no commits, no ref, the number of refs). A push by nobody known records nothing.
 */
async function recordPush(
  tx: Tx, event: PushEvent | TagPushEvent, refType: "branch" | "tag", ref: string, commits: () => Promise<{ count: number; title: string | null }>,
): Promise<void> {
  if (event.actorId === null) return;
  const action = event.before === BLANK_SHA ? "created" : event.after === BLANK_SHA ? "removed" : "pushed";
  const base = { projectId: event.projectId, authorId: event.actorId, action: "pushed" as const };
  if (event.group.size > PUSH_EVENT_ACTIVITIES_LIMIT) {
    if (!event.group.first) return;
    await record(tx, base, { pushAction: action, pushRefType: refType, pushCommitCount: 0, pushRefCount: event.group.size });
    return;
  }
  const { count, title } = await commits();
  await record(tx, base, {
    pushAction: action, pushRefType: refType, pushRef: ref, pushCommitCount: count,
    pushCommitFrom: action === "created" ? null : event.before, pushCommitTo: action === "removed" ? null : event.after,
    pushCommitTitle: title === null ? null : commitTitle(title),
  });
}

/** The first line of the message, stripped, cut to 70 characters with "..." as Rails' truncate(70). */
export function commitTitle(message: string): string {
  const newline = message.indexOf("\n");
  const line = (newline >= 0 ? message.slice(0, newline) : message).trim();
  return line.length > 70 ? `${line.slice(0, 67)}...` : line;
}
