// Live events: the domain events the public graph's subscriptions deliver (issues, merge requests,
// notes, emoji, approvals). They are collected inside the write's transaction and handed to this
// process's listeners only once it commits, so a rolled-back or refused write emits nothing. On
// PostgreSQL each commit also NOTIFYs them on a channel of their own, for the other processes'
// subscribers (listenForLiveEvents). Who may see an event is decided at delivery, by the reader.
import { randomUUID } from "node:crypto";
import { afterCommit, type TransactionClient } from "../../db/after-commit.js";
import { listenOnChannel, type ChannelListener } from "../../db/listen.js";
import { subscribe, type Tx } from "../shared/events.js";

export const LIVE_EVENTS_CHANNEL = "forgeline_live_events";

export type LiveEventKind = "ISSUE" | "MERGE_REQUEST" | "NOTE" | "EMOJI" | "APPROVAL";

export interface LiveEvent {
  kind: LiveEventKind;
  /** the domain event's action: open, update, close, reopen, merge, create, award, revoke, approved, ... */
  action: string;
  projectId: number;
  /** the model (global id type) and id of what the event is about; an emoji's is its awardable */
  objectType: "Issue" | "MergeRequest" | "Note" | "Snippet";
  objectId: number;
  /** an emoji event's emoji */
  emojiName: string | null;
  /** ISO time of the write */
  occurredAt: string;
}

type Listener = (event: LiveEvent) => void;

const pendingIn = new WeakMap<object, LiveEvent[]>();
const listeners = new WeakMap<object, Set<Listener>>();
/** per database client: tells a process's own notifications from the others' */
const origins = new WeakMap<object, string>();

function originOf(db: object): string {
  if (!origins.has(db)) origins.set(db, randomUUID());
  return origins.get(db)!;
}

function record(tx: Tx, event: LiveEvent): void {
  pendingIn.set(tx, [...(pendingIn.get(tx) ?? []), event]);
}

subscribe("issue", async (tx, event, ctx) =>
  record(tx, { kind: "ISSUE", action: event.action, projectId: event.projectId, objectType: "Issue", objectId: event.issue.id, emojiName: null, occurredAt: ctx.now().toISOString() }));

subscribe("merge_request", async (tx, event, ctx) =>
  record(tx, { kind: "MERGE_REQUEST", action: event.action, projectId: event.projectId, objectType: "MergeRequest", objectId: event.mergeRequestId, emojiName: null, occurredAt: ctx.now().toISOString() }));

subscribe("note", async (tx, event, ctx) =>
  record(tx, { kind: "NOTE", action: event.action, projectId: event.projectId, objectType: "Note", objectId: event.noteId, emojiName: null, occurredAt: ctx.now().toISOString() }));

subscribe("emoji", async (tx, event, ctx) =>
  record(tx, { kind: "EMOJI", action: event.action, projectId: event.projectId, objectType: event.awardableType, objectId: event.awardableId, emojiName: event.name, occurredAt: ctx.now().toISOString() }));

subscribe("approval", async (tx, event, ctx) =>
  record(tx, { kind: "APPROVAL", action: event.action, projectId: event.projectId, objectType: "MergeRequest", objectId: event.mergeRequestId, emojiName: null, occurredAt: ctx.now().toISOString() }));

type Query = (sql: string) => Promise<unknown>;

/**
 * After each interactive transaction of `db` that recorded live events, once it committed: hands
 * them to the process's listeners and, given `query` (PostgreSQL), NOTIFYs the other processes.
 */
export function publishLiveEventsOnCommit(db: TransactionClient, query?: Query): void {
  afterCommit(db, (tx) => {
    const events = pendingIn.get(tx);
    if (!events) return;
    deliver(db, events);
    if (query) void query(notifyStatement(originOf(db), events)).catch(() => {}); // lost: only other processes' live views miss it
  });
}

function deliver(db: object, events: LiveEvent[]): void {
  for (const listener of listeners.get(db) ?? []) for (const event of events) safely(listener, event);
}

/** A live view's failure (a subscriber too slow to keep up) must not fail the write that committed. */
function safely(listener: Listener, event: LiveEvent): void {
  try {
    listener(event);
  } catch {
    // that subscriber misses the event
  }
}

/** One statement for the transaction's events, one notification each (a payload stays far below PostgreSQL's 8000 bytes). */
function notifyStatement(origin: string, events: LiveEvent[]): string {
  const literal = (event: LiveEvent) => `('${JSON.stringify({ origin, event }).replaceAll("'", "''")}')`;
  return `SELECT pg_notify('${LIVE_EVENTS_CHANNEL}', payload) FROM (VALUES ${events.map(literal).join(", ")}) AS sent(payload)`;
}

/** Calls `listener` with each live event committed through `db` in this process; returns the unsubscribe. */
export function onLiveEvent(db: object, listener: Listener): () => void {
  const set = listeners.get(db) ?? new Set();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** PostgreSQL: the live events other processes (other clients than `db`) committed, from a LISTEN connection of its own. */
export function listenForLiveEvents(db: object, databaseUrl: string, listener: Listener, log: (message: string, error?: unknown) => void): ChannelListener {
  const received = (payload?: string) => {
    if (!payload) return; // a (re)connection: what was missed meanwhile is gone, as with any live view
    const message = JSON.parse(payload) as { origin: string; event: LiveEvent };
    if (message.origin !== originOf(db)) safely(listener, message.event);
  };
  return listenOnChannel(databaseUrl, LIVE_EVENTS_CHANNEL, received, log);
}
