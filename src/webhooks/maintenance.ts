// The worker's periodic sweep: "access token expires soon" notices (GitLab sends one when a
// project or group access token expires within seven days), and clean-ups: expired rate-limit
// counters, history older than 14 days (GitLab keeps 14 days of logs), settled deliveries older
// than 7 days.
import type { Services } from "../domain/shared/context.js";
import { enqueueHookDeliveries } from "./outbox.js";
import { loadProject } from "./payloads/common.js";
import { buildAccessTokenPayload, type TokenResource } from "./payloads/membership.js";

const DAY_MS = 86_400_000;
export const EXPIRY_NOTICE = { interval: "seven_days", days: 7 } as const;

export async function runMaintenance(services: Services): Promise<void> {
  const now = services.now();
  await services.db.rateLimitCounter.deleteMany({ where: { expiresAt: { lt: now } } });
  await services.db.webHookLog.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - 14 * DAY_MS) } } });
  await services.db.webHookDelivery.deleteMany({
    where: { status: { in: ["done", "failed"] }, updatedAt: { lt: new Date(now.getTime() - 7 * DAY_MS) } },
  });
  await notifyExpiringTokens(services);
}

/** One notice per token: the notice row and the deliveries are written together. */
export async function notifyExpiringTokens(services: Services): Promise<number> {
  const now = services.now();
  const tokens = await services.db.accessToken.findMany({
    where: {
      kind: { in: ["project", "group"] }, revoked: false, resourceId: { not: null },
      expiresAt: { gt: now, lte: new Date(now.getTime() + EXPIRY_NOTICE.days * DAY_MS) },
    },
  });
  const noticed = await services.db.webHookTokenNotice.findMany({
    where: { tokenId: { in: tokens.map((t) => t.id) }, interval: EXPIRY_NOTICE.interval }, select: { tokenId: true },
  });
  const done = new Set(noticed.map((n) => n.tokenId));
  let sent = 0;
  for (const token of tokens.filter((t) => !done.has(t.id))) {
    await services.db.$transaction(async (tx) => {
      // a second worker sweeping at the same time fails here (primary key) and sends nothing
      await tx.webHookTokenNotice.create({ data: { tokenId: token.id, interval: EXPIRY_NOTICE.interval } });
      const resource: TokenResource | null = token.kind === "project"
        ? await loadProject(tx, token.resourceId!).then((project) => project && { type: "project" as const, project })
        : await tx.namespace.findUnique({ where: { id: token.resourceId! } }).then((group) => group && { type: "group" as const, group });
      if (!resource) return;
      const payload = buildAccessTokenPayload(services, token, resource);
      const where = resource.type === "project" ? { projectId: resource.project.id } : { groupId: resource.group.id };
      sent += await enqueueHookDeliveries(tx, services, { ...where, trigger: "resource_access_token_hooks", payload });
    }).catch((error: { code?: string }) => {
      if (error.code !== "P2002") throw error;
    });
  }
  return sent;
}
