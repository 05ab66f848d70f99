// Webhooks of groups and projects (GitLab's GroupHook and ProjectHook, lib/api/helpers/web_hooks_helpers.rb):
// list and read, with the same rules for both owners (owners.ts says what differs). Create, edit and
// delete: writes.ts; what a hook entity shows: presenter.ts.
import { notFound, recordNotFound } from "../../errors.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { hookOwnerOf, resolveHookOwner, type HookOwner, type HookOwnerRef, type OwnedHook } from "./owners.js";
import { toEntity, type HookEntity } from "./presenter.js";

/** GET /groups/:id/hooks and /projects/:id/hooks: for those who may manage the owner's hooks. */
export async function listHooks(ctx: DomainContext, owner: GroupOrProjectAccess, page: PageArgs): Promise<Page<HookEntity>> {
  const { where } = hookOwnerOf(ctx, owner);
  const hooks = await paginate(
    page,
    (cap) => ctx.db.webHook.count({ where, take: cap }),
    (skip, take) => ctx.db.webHook.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
  return { ...hooks, rows: hooks.rows.map((row) => toEntity(ctx, row)) };
}

/** GET .../hooks/:hook_id: the hook of an owner the request names (401, 404 owner, 403, then 404 hook). */
export async function findHook(ctx: DomainContext, ref: HookOwnerRef, hookId: number): Promise<OwnedHook> {
  return findOwnedHook(ctx, await resolveHookOwner(ctx, ref), hookId);
}

/** A hook of an owner whose hooks the caller may manage (404 when it has no such hook). */
export async function findOwnedHook(ctx: DomainContext, owner: HookOwner, hookId: number): Promise<OwnedHook> {
  const hook = await ctx.db.webHook.findFirst({ where: { id: hookId, ...owner.where } });
  if (!hook) throw recordNotFound();
  return { hook, owner };
}

/**
 * The hook a DELETE names, or null when the owner has no such hook: GitLab's DELETE of a hook is
 * idempotent (204 for one already gone), after the owner's rules as findHook's.
 */
export async function findHookToDelete(ctx: DomainContext, ref: HookOwnerRef, hookId: number): Promise<OwnedHook | null> {
  const owner = await resolveHookOwner(ctx, ref);
  const hook = await ctx.db.webHook.findFirst({ where: { id: hookId, ...owner.where } });
  return hook && { hook, owner };
}

/**
 * The group or project hook (`kind`) with database id `id`, for those who may manage its owner's
 * hooks; a hook of the other kind is missing (404), then the owner's rules as findHook's.
 */
export async function findHookById(ctx: DomainContext, kind: HookOwner["kind"], id: number): Promise<OwnedHook> {
  const hook = fitsIdColumn(id) ? await ctx.db.webHook.findUnique({ where: { id } }) : null;
  const ownerId = kind === "group" ? hook?.groupId : hook?.projectId;
  if (!hook || ownerId == null) throw notFound();
  return { hook, owner: await resolveHookOwner(ctx, kind === "group" ? { group: ownerId } : { project: ownerId }) };
}

/** The hook entity of a found hook. */
export const hookEntity = (ctx: DomainContext, { hook }: OwnedHook): HookEntity => toEntity(ctx, hook);
