// The webhook a global id names, with its owner as the domain's hook functions take it.
import type { Context } from "../context.js";
import type { HookOwnerRef } from "../domain/web-hooks/owners.js";
import { hookOwnerById } from "../domain/shared/record-paths.js";
import { ownedRecordOf } from "./mutation-inputs.js";

export type HookKind = "project" | "group";

export const HOOK_TYPENAMES = { project: "ProjectHook", group: "GroupHook" } as const;

/** A ProjectHook or GroupHook global id's hook and owner; else the domain's 404 (an id of the other kind too). */
export async function hookTargetOf(ctx: Context, kind: HookKind, gid: string | number): Promise<{ owner: HookOwnerRef; hookId: number }> {
  const { id: hookId, owner } = await ownedRecordOf(ctx, gid, HOOK_TYPENAMES[kind], (ctx, id) => hookOwnerById(ctx, kind, id));
  return { owner, hookId };
}
