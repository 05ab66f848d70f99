// The webhook a global id names, with its owner as the domain's hook functions take it.
import type { Context } from "../context.js";
import type { HookOwnerRef } from "../domain/web-hooks/owners.js";
import { hookOwnerById } from "../domain/shared/record-paths.js";
import { notFound } from "../errors.js";
import { idOfGid } from "./ids.js";

export type HookKind = "project" | "group";

export const HOOK_TYPENAMES = { project: "ProjectHook", group: "GroupHook" } as const;

/** A ProjectHook or GroupHook global id's hook and owner; else the domain's 404 (an id of the other kind too). */
export async function hookTargetOf(ctx: Context, kind: HookKind, gid: string | number): Promise<{ owner: HookOwnerRef; hookId: number }> {
  const hookId = idOfGid(String(gid), HOOK_TYPENAMES[kind]);
  const owner = hookId == null ? null : await hookOwnerById(ctx, kind, hookId);
  if (!owner || hookId == null) throw notFound();
  return { owner, hookId };
}
