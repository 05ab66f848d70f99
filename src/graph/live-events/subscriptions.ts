// Live events on the public graph: `Subscription.projectEvents` and `groupEvents` (served over SSE by
// yoga) deliver the committed issue, merge request, note, emoji and approval events of a project or
// of a group's projects (domain/live-events/publisher.ts). Subscribing needs a project or group the caller
// can see; each event then reaches the subscriber only when node(id:) would show its object to them
// at that moment (confidential issues and their notes, internal notes: the domain's read rules).
import { logError } from "../../observability/logger.js";
import { createPubSub, type PubSub } from "graphql-yoga";
import { createContext, type Context } from "../../context.js";
import { ancestorIds } from "../../domain/shared/access-levels.js";
import { findGroup, projectById } from "../../domain/shared/parents.js";
import type { Services } from "../../domain/shared/context.js";
import { listenForLiveEvents, onLiveEvent, type LiveEvent } from "../../domain/live-events/publisher.js";
import type { ProjectWithNamespace } from "../../domain/projects/lists.js";
import { appErrorOf } from "../../errors.js";
import type { ChannelListener } from "../../db/listen.js";
import { builder } from "../shared/builder.js";
import { orNull, resourceNotAvailable } from "../shared/errors.js";
import { encodeGid } from "../shared/ids.js";
import { byFullPath } from "../groups/types.js";
import { loadNode } from "../shared/node.js";
import { ProjectRef, projectOf } from "../projects/types.js";

interface DeliveredEvent extends LiveEvent {
  project: ProjectWithNamespace;
  object: object;
}

/** A process's live events for one database client, and (PostgreSQL) the other processes' while someone subscribes. */
interface Hub {
  pubsub: PubSub<{ live: [LiveEvent] }>;
  subscribers: number;
  listener?: ChannelListener;
}

const hubs = new WeakMap<object, Hub>();

function hubOf(services: Services): Hub {
  let hub = hubs.get(services.db);
  if (!hub) {
    const pubsub = createPubSub<{ live: [LiveEvent] }>();
    onLiveEvent(services.db, (event) => pubsub.publish("live", event));
    hub = { pubsub, subscribers: 0 };
    hubs.set(services.db, hub);
  }
  return hub;
}

const logListenerError = logError;

function join(services: Services): Hub {
  const hub = hubOf(services);
  if (hub.subscribers++ === 0 && services.dialect === "postgresql") {
    hub.listener = listenForLiveEvents(services.db, services.config.databaseUrl, (event) => hub.pubsub.publish("live", event), logListenerError);
  }
  return hub;
}

function leave(hub: Hub): void {
  if (--hub.subscribers > 0) return;
  void hub.listener?.close();
  hub.listener = undefined;
}

/**
 * The subscriber as a new request would find them now (the subscription outlives the request that
 * opened it): their credentials authenticated again, fresh caches and loaders; null once their
 * token is revoked or expired or they are blocked.
 */
async function currentReader(ctx: Context): Promise<Context | null> {
  try {
    return { ...(await createContext(ctx, ctx.request)), followProjectRedirects: true };
  } catch (error) {
    if (appErrorOf(error)) return null;
    throw error;
  }
}

/** The event as `reader` may see it, or null: its object through node(id:)'s loaders. */
async function asSeenBy(reader: Context, event: LiveEvent): Promise<DeliveredEvent | null> {
  const object = await loadNode(reader, encodeGid(event.objectType, event.objectId));
  const project = object && (await orNull(() => projectOf(reader, event.projectId)));
  return project ? { ...event, project, object } : null;
}

/**
 * The events `concerns` picks, as the caller may see each, until the caller's credentials stop
 * working. Started at once (not at the first pull), so that what commits after the subscription
 * was answered reaches it; an iterator rather than a generator so that a `return` before the first
 * pull still leaves the hub.
 */
function deliveries(ctx: Context, concerns: (reader: Context, event: LiveEvent) => Promise<boolean>): AsyncIterableIterator<DeliveredEvent> {
  const hub = join(ctx);
  const events = hub.pubsub.subscribe("live")[Symbol.asyncIterator]();
  let pending = events.next(); // runs the pubsub's Repeater: it listens from now on
  let open = true;
  const close = async (): Promise<IteratorResult<DeliveredEvent>> => {
    if (open) {
      open = false;
      leave(hub);
      await events.return?.();
    }
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      for (;;) {
        const result = await pending;
        if (result.done || !open) return close();
        pending = events.next();
        const reader = await currentReader(ctx);
        if (!reader) return close();
        const delivered = (await concerns(reader, result.value)) ? await asSeenBy(reader, result.value) : null;
        if (delivered) return { done: false, value: delivered };
      }
    },
    return: close,
  };
}

async function isInGroup(reader: Context, groupId: number, event: LiveEvent): Promise<boolean> {
  const project = await projectById(reader, event.projectId);
  return !!project && ancestorIds(project.namespace).includes(groupId);
}

const ProjectEventKindEnum = builder.enumType("ProjectEventKind", {
  description: "What a live project event is about.",
  values: ["ISSUE", "MERGE_REQUEST", "NOTE", "EMOJI", "APPROVAL"] as const,
});

const ProjectEventRef = builder.objectRef<DeliveredEvent>("ProjectEvent").implement({
  description: "A committed change in a project, for subscriptions: fetch the object's details with node(id:).",
  fields: (t) => ({
    kind: t.field({ type: ProjectEventKindEnum, resolve: (event) => event.kind }),
    action: t.exposeString("action", {
      description: "ISSUE and MERGE_REQUEST: open, update, close, reopen (merge); NOTE: create, update; EMOJI: award, revoke; APPROVAL: approved, approval, unapproved, unapproval, reset.",
    }),
    project: t.field({ type: ProjectRef, resolve: (event) => event.project }),
    objectId: t.id({
      description: "Global id of the issue, merge request or note; for EMOJI the awardable's (an issue, merge request, note or snippet); for APPROVAL the merge request's.",
      resolve: (event) => encodeGid(event.objectType, event.objectId),
    }),
    object: t.field({ type: builder.nodeInterfaceRef(), description: "The object objectId names, as the subscriber sees it.", resolve: (event) => event.object as never }),
    emojiName: t.string({ nullable: true, description: "EMOJI: the emoji's name.", resolve: (event) => event.emojiName }),
    occurredAt: t.field({ type: "Time", resolve: (event) => event.occurredAt }),
  }),
});

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  projectEvents: t.field({
    type: ProjectEventRef,
    description: "The project's issue, merge request, note, emoji and approval events, once committed, that the caller may see.",
    args: { fullPath: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      const project = await byFullPath(args.fullPath, (path) => projectOf(ctx, path));
      if (!project) throw resourceNotAvailable();
      return deliveries(ctx, async (_reader, event) => event.projectId === project.id);
    },
    resolve: (event) => event,
  }),
  groupEvents: t.field({
    type: ProjectEventRef,
    description: "projectEvents of every project in the group and its subgroups.",
    args: { fullPath: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      const group = await byFullPath(args.fullPath, async (path) => (await findGroup(ctx, path)).group);
      if (!group) throw resourceNotAvailable();
      return deliveries(ctx, (reader, event) => isInGroup(reader, group.id, event));
    },
    resolve: (event) => event,
  }),
}));
