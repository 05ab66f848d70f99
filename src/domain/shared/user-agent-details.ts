// GitLab's user_agent_details: the User-Agent and IP address of the request that created an issue
// or a snippet (UserAgentDetailService, for spam review), read back by administrators only. A row
// needs both (GitLab validates their presence); the IP address is personal data and never logged.
import type { UserAgentDetail } from "../../generated/prisma/client.js";
import { notFound } from "../../errors.js";
import { requireAdmin } from "./guards.js";
import type { DomainContext } from "./context.js";
import type { Tx } from "./events.js";

export type UserAgentSubject = "Issue" | "Snippet";

/** Stores the request's client with a record it just created (nothing outside a request). */
export async function recordUserAgentDetail(tx: Tx, ctx: DomainContext, subjectType: UserAgentSubject, subjectId: number): Promise<void> {
  const { userAgent, ipAddress } = ctx.client ?? {};
  if (!userAgent || !ipAddress) return;
  const now = ctx.now();
  await tx.userAgentDetail.create({ data: { subjectType, subjectId, userAgent, ipAddress, createdAt: now, updatedAt: now } });
}

/** `authenticated_as_admin!` first: 401 anonymous, 403 for anyone but administrators. */
export const requireUserAgentDetailReader = (ctx: DomainContext) => requireAdmin(ctx);

/** The detail of a found record, for an administrator; none: 404 UserAgentDetail Not Found. */
export async function findUserAgentDetail(ctx: DomainContext, subjectType: UserAgentSubject, subjectId: number): Promise<UserAgentDetail> {
  requireAdmin(ctx);
  const detail = await ctx.db.userAgentDetail.findUnique({ where: { subjectType_subjectId: { subjectType, subjectId } } });
  if (!detail) throw notFound("UserAgentDetail");
  return detail;
}

/** The details of deleted records (in the deleting transaction; there is no foreign key to follow). */
export async function deleteUserAgentDetails(tx: Tx, subjectType: UserAgentSubject, subjectIds: number[]): Promise<void> {
  if (subjectIds.length) await tx.userAgentDetail.deleteMany({ where: { subjectType, subjectId: { in: subjectIds } } });
}
