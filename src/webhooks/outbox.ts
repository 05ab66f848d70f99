// The outbox: a change that fires an event writes one delivery row per hook that hears it, in the
// change's own transaction, so the delivery exists exactly when the change does. Hooks that hear
// an event: for an event in a project, the project's own hooks and those of its group and the
// group's ancestors (GitLab's Project#execute_hooks runs both); for an event in a group, those of
// the group and its ancestors. Each with the event's switch on, not auto-disabled, and for pushes
// whose branch filter matches.
import { randomUUID } from "node:crypto";
import { Prisma, type WebHook } from "../generated/prisma/client.js";
import { ancestorIds } from "../domain/shared/access-levels.js";
import { projectByIdInTransaction } from "../domain/shared/parents.js";
import type { DomainContext } from "../domain/shared/context.js";
import type { Tx } from "../domain/shared/events.js";
import { alertStatus } from "../domain/web-hooks/rows.js";
import { hookEventColumn } from "../domain/web-hooks/switches.js";
import { branchMatches } from "./branch-filter.js";
import { TRIGGER_SWITCHES, type Trigger } from "../domain/web-hooks/triggers.js";
import { markEnqueued } from "./wake.js";
import { currentRequest } from "../observability/request-scope.js";

export interface HookEventInput {
  /** the group the event happened in (member and subgroup events) */
  groupId?: number;
  /** the project the event happened in */
  projectId?: number;
  trigger: Trigger;
  /** the payload, or how to build it: built only when some hook hears the event */
  payload: object | (() => Promise<object>);
  /** push and tag push: the branch, for branch filters (tag pushes are not filtered) */
  branch?: string;
}

/** Writes the delivery rows; returns how many hooks will receive the event. */
export async function enqueueHookDeliveries(tx: Tx, ctx: Pick<DomainContext, "now" | "caches" | "db">, input: HookEventInput): Promise<number> {
  const owners = await ownersOf(tx, ctx, input);
  if (!owners.groupIds.length && owners.projectId === null) return 0;
  const column = columnOf(input.trigger);
  const where: Prisma.WebHookWhereInput = {
    OR: [{ groupId: { in: owners.groupIds } }, ...(owners.projectId === null ? [] : [{ projectId: owners.projectId }])],
    [column]: true,
  };
  const key = `${column}:${owners.projectId ?? ""}:${owners.groupIds.join(",")}`;
  const hooks = (await ctx.caches.webHooks.loadInTransaction(key, async () => ({
    value: await tx.webHook.findMany({ where, orderBy: { id: "asc" } }),
  })))!;
  const now = ctx.now();
  const hearing = hooks.filter((hook) => hears(hook, input, now));
  if (!hearing.length) return 0;
  const payload = JSON.stringify(typeof input.payload === "function" ? await input.payload() : input.payload);
  await insertDeliveries(tx, hearing.map((hook) => hook.id), input.trigger, payload, now);
  markEnqueued(tx);
  return hearing.length;
}

/**
 * One pending row per hook, due at `now`, in one statement. Raw SQL: it runs for nearly every write
 * and a Prisma model createMany costs several times the statement's own CPU. Portable (a
 * multi-row VALUES list); createdAt and updatedAt are the clock's time, as Prisma's defaults are.
 */
async function insertDeliveries(tx: Tx, hookIds: number[], trigger: Trigger, payload: string, now: Date): Promise<void> {
  const correlationId = currentRequest()?.correlationId ?? null;
  const stamped = new Date();
  const rows = hookIds.map((hookId) =>
    Prisma.sql`(${hookId}, ${trigger}, ${payload}, ${randomUUID()}, ${randomUUID()}, ${correlationId}, 'pending', 0, ${now}, ${stamped}, ${stamped})`);
  await tx.$executeRaw`INSERT INTO "WebHookDelivery"
    ("hookId", "trigger", "payload", "idempotencyKey", "eventUuid", "correlationId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
    VALUES ${Prisma.join(rows)}`;
}

function hears(hook: WebHook, input: HookEventInput, now: Date): boolean {
  if (alertStatus(hook, now) !== "executable") return false;
  return input.trigger !== "push_hooks" || input.branch === undefined || branchMatches(hook, input.branch);
}

/**
 * The project whose hooks hear the event (null for an event in a group), and the ids of the groups
 * whose hooks hear it: the event's group (or the project's) and its ancestors; none for a project
 * in a personal namespace.
 */
async function ownersOf(tx: Tx, ctx: Pick<DomainContext, "caches" | "db">, input: HookEventInput) {
  if (input.groupId !== undefined) {
    const group = await tx.namespace.findUnique({ where: { id: input.groupId }, select: { kind: true, traversalIds: true } });
    return { projectId: null, groupIds: group?.kind === "group" ? ancestorIds(group) : [] };
  }
  const project = input.projectId === undefined ? null : await projectByIdInTransaction(ctx.caches, tx, input.projectId);
  if (!project) return { projectId: null, groupIds: [] };
  return { projectId: project.id, groupIds: project.namespace.kind === "group" ? ancestorIds(project.namespace) : [] };
}

/** `push_hooks` -> the WebHook column `pushEvents`. */
const columnOf = (trigger: Trigger) => hookEventColumn(TRIGGER_SWITCHES[trigger]);

/** The outbox's depth and the age of its oldest pending row, for the metrics (one statement). */
export async function outboxState(db: DomainContext["db"]): Promise<{ pending: number; oldestPendingAt: Date | null }> {
  const { _count, _min } = await db.webHookDelivery.aggregate({ where: { status: "pending" }, _count: { _all: true }, _min: { createdAt: true } });
  return { pending: _count._all, oldestPendingAt: _min.createdAt };
}
