// Domain events: what happened, published inside the transaction that made it happen, so that
// what reacts to it (merge request head sha, approval resets, the webhook outbox) commits or
// rolls back together with the change. Subscribers register once at start (src/domain/subscribers.ts).
import type { Prisma } from "../generated/prisma/client.js";
import type { DomainContext } from "./context.js";

export type Tx = Prisma.TransactionClient;

/** GitLab's blank sha: `before` of a created branch, `after` of a deleted one. */
export const BLANK_SHA = "0".repeat(40);

/** A branch was created, advanced by new commits, or deleted (GitLab's push). */
export interface PushEvent {
  projectId: number;
  /** branch name, without refs/heads/ */
  branch: string;
  before: string;
  after: string;
  /** shas of the new commits, oldest first */
  commitShas: string[];
  actorId: number | null;
}

/** Old and new value of each changed attribute (GitLab's `changes`), keyed by REST field name. */
export type Changes = Record<string, { previous: unknown; current: unknown }>;

export interface IssueEvent {
  action: "open" | "update" | "close" | "reopen";
  projectId: number;
  issueId: number;
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

/** Every event kind and its payload; later areas add theirs here. */
export interface DomainEvents {
  push: PushEvent;
  issue: IssueEvent;
  merge_request: MergeRequestEvent;
  note: NoteEvent;
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
