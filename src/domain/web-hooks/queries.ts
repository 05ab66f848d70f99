// Webhooks of groups and projects (GitLab's GroupHook and ProjectHook, lib/api/helpers/web_hooks_helpers.rb):
// list and read, with the same rules for both owners (owners.ts says what differs). Create, edit and
// delete: writes.ts; what a hook entity shows: presenter.ts.
import { recordNotFound } from "../../errors.js";
import type { WebHook } from "../../generated/prisma/client.js";
import type { GroupOrProjectAccess } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { hookOwnerOf, resolveHookOwner, type HookOwner, type HookOwnerRef } from "./owners.js";
import { toEntity, type HookEntity } from "./presenter.js";

export async function findHookRow(ctx: DomainContext, owner: HookOwner, hookId: number): Promise<WebHook> {
  const row = await ctx.db.webHook.findFirst({ where: { id: hookId, ...owner.where } });
  if (!row) throw recordNotFound();
  return row;
}

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

export async function getHook(ctx: DomainContext, ref: HookOwnerRef, hookId: number): Promise<HookEntity> {
  const owner = await resolveHookOwner(ctx, ref);
  return toEntity(ctx, await findHookRow(ctx, owner, hookId));
}
