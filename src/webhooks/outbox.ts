// The outbox: a change that fires an event writes one delivery row per hook that hears it, in the
// change's own transaction, so the delivery exists exactly when the change does. Hooks that hear
// an event: those of the event's group and of its ancestor groups (for a project: of its group
// and the ancestors), with the event's switch on, not auto-disabled, and for pushes whose branch
// filter matches.
import { randomUUID } from "node:crypto";
import type { GroupHook } from "../generated/prisma/client.js";
import { ancestorIds, projectByIdInTransaction } from "../domain/access.js";
import type { DomainContext } from "../domain/context.js";
import type { Tx } from "../domain/events.js";
import { alertStatus, hookEventColumn } from "../domain/group-hooks.js";
import { branchMatches } from "./branch-filter.js";
import { TRIGGER_SWITCHES, type Trigger } from "./triggers.js";

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
  const groupIds = await hierarchyOf(tx, ctx, input);
  if (!groupIds.length) return 0;
  const column = columnOf(input.trigger);
  const hooks = (await ctx.caches.groupHooks.loadInTransaction(`${column}:${groupIds.join(",")}`, async () => ({
    value: await tx.groupHook.findMany({ where: { groupId: { in: groupIds }, [column]: true }, orderBy: { id: "asc" } }),
  })))!;
  const now = ctx.now();
  const hearing = hooks.filter((hook) => hears(hook, input, now));
  if (!hearing.length) return 0;
  const payload = JSON.stringify(typeof input.payload === "function" ? await input.payload() : input.payload);
  await tx.webHookDelivery.createMany({
    data: hearing.map((hook) => ({
      hookId: hook.id, trigger: input.trigger, payload, idempotencyKey: randomUUID(), eventUuid: randomUUID(), nextAttemptAt: now,
    })),
  });
  return hearing.length;
}

function hears(hook: GroupHook, input: HookEventInput, now: Date): boolean {
  if (alertStatus(hook, now) !== "executable") return false;
  return input.trigger !== "push_hooks" || input.branch === undefined || branchMatches(hook, input.branch);
}

/** The ids of the event's group and its ancestors (none for a project in a personal namespace). */
async function hierarchyOf(tx: Tx, ctx: Pick<DomainContext, "caches" | "db">, input: HookEventInput): Promise<number[]> {
  if (input.groupId !== undefined) {
    const group = await tx.namespace.findUnique({ where: { id: input.groupId }, select: { kind: true, traversalIds: true } });
    return group?.kind === "group" ? ancestorIds(group) : [];
  }
  if (input.projectId === undefined) return [];
  const project = await projectByIdInTransaction(ctx.caches, tx, input.projectId);
  return project?.namespace.kind === "group" ? ancestorIds(project.namespace) : [];
}

/** `push_hooks` -> the GroupHook column `pushEvents`. */
const columnOf = (trigger: Trigger) => hookEventColumn(TRIGGER_SWITCHES[trigger]);
