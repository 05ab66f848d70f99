// Domain events: what happened, published inside the transaction that made it happen, so that
// what reacts to it (merge request head sha, approval resets, the webhook outbox) commits or
// rolls back together with the change. Subscribers register once at start (src/event-subscribers.ts).
import type { AccessToken, Application, Issue, IssueAssignee, Label, MergeRequestDiff, Milestone, Namespace, Prisma, Project, Release, ReleaseLink, User, WebHook } from "../../generated/prisma/client.js";
import type { CommitFacts } from "./commits.js";
import type { DomainContext } from "./context.js";

export type Tx = Prisma.TransactionClient;

/** GitLab's blank sha: `before` of a created branch, `after` of a deleted one. */
export const BLANK_SHA = "0".repeat(40);

/** A commit a push brought, with the files it changed against its first parent (GitLab's repo_changes). */
export interface PushedCommit extends CommitFacts {
  added: string[];
  modified: string[];
  removed: string[];
}

/** What a push brought: its newest commits (at most 20, oldest first) and how many in all. */
export interface PushedCommits {
  commits: PushedCommit[];
  total: number;
}

export interface PushedCount {
  total: number;
  newestMessage: string | null;
}

/**
 * The refs of one push with the same kind (branch or tag) and action (created, pushed, removed):
 * how many, and whether this one comes first. GitLab records one bulk contribution event for a group
 * larger than push_event_activities_limit instead of one per ref.
 */
export interface RefGroup {
  size: number;
  first: boolean;
}

/** A branch was created, moved (advanced or forced) or deleted: a push, through git or the API. */
export interface PushEvent {
  projectId: number;
  /** branch name, without refs/heads/ */
  branch: string;
  before: string;
  after: string;
  /** the commits the push brought, read from git when a subscriber asks (once) */
  pushed: () => Promise<PushedCommits>;
  /** how many commits the push brought and the newest one's message, without their file changes (once) */
  counted: () => Promise<PushedCount>;
  /** the paths every pushed commit changed, read when a subscriber asks */
  changedPaths: () => Promise<string[]>;
  actorId: number | null;
  /** false when the push moved more refs than push hooks are sent for (GitLab's push_event_hooks_limit) */
  withHooks: boolean;
  group: RefGroup;
}

/** A tag was created (before: BLANK_SHA), moved, or deleted (after: BLANK_SHA): GitLab's tag push. */
export interface TagPushEvent {
  projectId: number;
  /** tag name, without refs/tags/ */
  tag: string;
  before: string;
  /** the tag's target (an annotated tag's object id) */
  after: string;
  /** the commit the tag points at, with its changed files (null: deleted), read when asked */
  commit: () => Promise<PushedCommit | null>;
  /** an annotated tag's message */
  message: string | null;
  actorId: number | null;
  withHooks: boolean;
  group: RefGroup;
}

/** Old and new value of each changed attribute (GitLab's `changes`), keyed by REST field name. */
export type Changes = Record<string, { previous: unknown; current: unknown }>;

export interface IssueEvent {
  action: "open" | "update" | "close" | "reopen";
  projectId: number;
  /** the issue as the change left it (with its labels when the write has them at hand) */
  issue: Issue & { assignees: IssueAssignee[]; labels?: Label[] };
  actorId: number;
  changes: Changes;
}

export interface MergeRequestEvent {
  action: "open" | "update" | "close" | "reopen" | "merge";
  projectId: number;
  mergeRequestId: number;
  actorId: number;
  changes: Changes;
}

export interface NoteEvent {
  action: "create" | "update";
  projectId: number;
  noteId: number;
  actorId: number;
}

/**
 * An emoji reaction was added to (award) or removed from (revoke) an issue, MR, snippet or note;
 * a revoke is published before the row is deleted.
 */
export interface EmojiEvent {
  action: "award" | "revoke";
  awardableType: "Issue" | "MergeRequest" | "Snippet" | "Note";
  awardableId: number;
  projectId: number;
  awardEmojiId: number;
  name: string;
  /** who the reaction belongs to (an administrator may revoke someone else's) */
  userId: number;
  actorId: number;
}

/**
 * A group or project membership was created, changed (level or expiry) or removed. The member's
 * values travel with the event: after a removal the row is gone.
 */
export interface MemberEvent {
  action: "create" | "update" | "destroy";
  source: "group" | "project";
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt: Date | null;
  createdAt: Date;
  actorId: number | null;
  /** an update's values before it */
  previous?: { accessLevel: number; expiresAt: Date | null };
}

/** A subgroup was created in (or removed from) its parent group; the rows travel with the event. */
export interface SubgroupEvent {
  action: "create" | "destroy";
  subgroup: Namespace;
  parent: Namespace;
  actorId: number | null;
}

/**
 * A merge request's approvals changed. GitLab's webhook actions: "approval" for one more approval,
 * "approved" when that approval made the MR fully approved, "unapproval" for one removed,
 * "unapproved" when the removal took away full approval; "reset" when all were cleared (the
 * reset_approvals endpoint, or a push to the source branch).
 */
export interface ApprovalEvent {
  action: "approved" | "approval" | "unapproved" | "unapproval" | "reset";
  projectId: number;
  mergeRequestId: number;
  /** who acted (null: a push by nobody known) */
  actorId: number | null;
  /** the users whose approval was added or removed */
  userIds: number[];
  cause: "api" | "push";
}

/** A project was created, or removed (published before its rows go, so that hook payloads can read them). */
export interface ProjectEvent {
  action: "create" | "destroy";
  project: Project & { namespace: Namespace };
  actorId: number | null;
}

/** A merge request's diff got a new version (merge-requests/versions.ts): diff threads follow it. */
export interface MergeRequestDiffEvent {
  projectId: number;
  mergeRequestId: number;
  /** the version before (none for a new merge request) */
  previous: MergeRequestDiff | null;
  latest: MergeRequestDiff;
  actorId: number | null;
}

/** A project's or a group's milestone was created, closed, reopened or deleted (deleted: the row as it was). */
export interface MilestoneEvent {
  action: "create" | "close" | "reopen" | "delete";
  milestone: Milestone;
  actorId: number;
}

/**
 * A release was created, updated or deleted through the Releases API (GitLab's release hooks); the
 * rows travel with the event (a deletion publishes them before they go).
 */
export interface ReleaseEvent {
  action: "create" | "update" | "delete";
  projectId: number;
  release: Release;
  /** newest first */
  links: ReleaseLink[];
  actorId: number;
}

/**
 * A personal, project or group access token was created or revoked (the row, never its secret);
 * a resource token names its project or group.
 */
export interface AccessTokenEvent {
  action: "create" | "revoke";
  token: AccessToken;
  resource: { type: "project" | "group"; id: number } | null;
  actorId: number;
}

/** A project's or a group's webhook was created, changed or deleted (deleted: the row as it was). */
export interface WebHookEvent {
  action: "create" | "update" | "destroy";
  hook: WebHook;
  actorId: number;
}

/** An instance OAuth application was created, had its secret renewed, or was deleted (never its secret). */
export interface ApplicationEvent {
  action: "create" | "renew_secret" | "destroy";
  application: Application;
  actorId: number;
}

/** A branch protection rule was created, changed or removed. */
export interface ProtectedBranchEvent {
  action: "create" | "update" | "destroy";
  projectId: number;
  name: string;
  actorId: number;
}

/** A project's or a group's visibility level changed (GitLab's level names). */
export interface VisibilityEvent {
  source: "project" | "group";
  sourceId: number;
  previous: string;
  current: string;
  actorId: number;
}

/** An administrator blocked, unblocked, banned, unbanned or deleted a user (deleted: the row as it was). */
export interface UserStateEvent {
  action: "block" | "unblock" | "ban" | "unban" | "destroy";
  user: User;
  actorId: number;
}

/** A user signed in with their password (OAuth password grant or the web sign-in form). */
export interface SignInEvent {
  user: User;
  provider: "standard";
}

/** A web sign-in with a password was refused: the login tried (GitLab's failed login event), never the password. */
export interface SignInFailedEvent {
  login: string;
  provider: "standard";
}

/**
 * A project's approval rules or approval settings changed (GitLab audits the project's rules and
 * settings; a group's rules and a merge request's own rules are not audited there).
 */
export interface ApprovalConfigEvent {
  action: "rule_create" | "rule_update" | "rule_destroy" | "settings_update";
  projectId: number;
  /** the rule's name, id and approvals required (rules); previousApprovalsRequired on an update */
  rule?: { id: number; name: string; approvalsRequired: number; previousApprovalsRequired?: number };
  /** the settings changed, by GitLab's column name, with their old and new value (settings) */
  changes?: Changes;
  actorId: number;
}

/** Every event kind and its payload; later areas add theirs here. */
export interface DomainEvents {
  push: PushEvent;
  tag_push: TagPushEvent;
  issue: IssueEvent;
  merge_request: MergeRequestEvent;
  note: NoteEvent;
  emoji: EmojiEvent;
  member: MemberEvent;
  subgroup: SubgroupEvent;
  approval: ApprovalEvent;
  project: ProjectEvent;
  merge_request_diff: MergeRequestDiffEvent;
  milestone: MilestoneEvent;
  release: ReleaseEvent;
  access_token: AccessTokenEvent;
  web_hook: WebHookEvent;
  application: ApplicationEvent;
  protected_branch: ProtectedBranchEvent;
  visibility: VisibilityEvent;
  user_state: UserStateEvent;
  sign_in: SignInEvent;
  sign_in_failed: SignInFailedEvent;
  approval_config: ApprovalConfigEvent;
}

export type DomainEventKind = keyof DomainEvents;
export type Subscriber<K extends DomainEventKind> = (tx: Tx, event: DomainEvents[K], ctx: DomainContext) => Promise<void>;

const subscribers = new Map<DomainEventKind, Subscriber<any>[]>();

export function subscribe<K extends DomainEventKind>(kind: K, subscriber: Subscriber<K>): void {
  subscribers.set(kind, [...(subscribers.get(kind) ?? []), subscriber]);
}

/** Runs every subscriber of the event, in registration order, inside the caller's transaction. */
export async function publish<K extends DomainEventKind>(tx: Tx, ctx: DomainContext, kind: K, event: DomainEvents[K]): Promise<void> {
  for (const subscriber of subscribers.get(kind) ?? []) await subscriber(tx, event, ctx);
}
