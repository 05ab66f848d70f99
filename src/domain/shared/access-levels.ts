// What an access level and a visibility allow: GitLab's roles, the visibility levels, traversal ids,
// who sees what without membership, and the level-only predicates every resource asks.
import type { Namespace } from "../../generated/prisma/client.js";
import { isAdmin, type Actor, type DomainContext } from "./context.js";
import type { ProjectAccess } from "./parents.js";

export const AccessLevel = { none: 0, minimal: 5, guest: 10, planner: 15, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
export const VALID_MEMBER_LEVELS = [5, 10, 15, 20, 30, 40, 50];
/** GitLab's role names (Gitlab::Access.human_access) by access level. */
export const ROLE_NAMES: Record<number, string> = {
  5: "Minimal Access", 10: "Guest", 15: "Planner", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner",
};
export const VISIBILITY_LEVELS: Record<string, number> = { private: 0, internal: 10, public: 20 };
/** Traversal ids are stored as "1/5/9/": each ancestor id followed by "/". */
export const traversalOf = (parent: Pick<Namespace, "traversalIds"> | null, id: number) =>
  `${parent ? parent.traversalIds : ""}${id}/`;
export const ancestorIds = (ns: Pick<Namespace, "traversalIds">) =>
  ns.traversalIds.split("/").filter(Boolean).map(Number);
/** Visibility levels an actor can see without any membership. */
export function openVisibilities(actor: Actor | null): string[] {
  return actor ? ["public", "internal"] : ["public"];
}
/** Visible without membership (public; internal for signed-in users), through membership, or to admins. */
export function canSee(actor: Actor | null, visibility: string, level: number): boolean {
  if (actor?.user.isAdmin) return true;
  if (level >= AccessLevel.guest) return true;
  return openVisibilities(actor).includes(visibility);
}
/** `read_internal_note` / `mark_note_as_internal`: Reporters and above, administrators. */
export function canReadInternalNotes(ctx: DomainContext, access: ProjectAccess): boolean {
  return isAdmin(ctx.actor) || access.level >= AccessLevel.reporter;
}
