// The coarse checks a request passes before any record is looked at: signed in, administrator, a
// level on a parent already found, and the field-level access declared on root fields.
import { AppError, forbidden } from "../../errors.js";
import type { Actor, DomainContext } from "./context.js";

export function requireAuthenticated(ctx: DomainContext): Actor {
  if (!ctx.actor) throw new AppError(401, { message: "401 Unauthorized" });
  return ctx.actor;
}
/** `authenticated_as_admin!`: 401 anonymous, 403 non-admin. */
export function requireAdmin(ctx: DomainContext): Actor {
  const actor = requireAuthenticated(ctx);
  if (!actor.user.isAdmin) throw forbidden();
  return actor;
}
/** The resource is visible; the caller must hold at least `min` on it (admins always do). */
export function requireLevel(ctx: DomainContext, level: number, min: number): void {
  requireAuthenticated(ctx);
  if (ctx.actor!.user.isAdmin) return;
  if (level < min) throw forbidden();
}
/** Field-level access declared on root fields (`extensions: { access }`), checked before params. */
export type CoarseAccess = "authenticated" | "admin";
export function requireCoarseAccess(ctx: DomainContext, access: CoarseAccess | undefined): void {
  if (access === "admin") requireAdmin(ctx);
  else if (access === "authenticated") requireAuthenticated(ctx);
}
