// Repairs what a crash between git moving refs and the database recording them left behind: the
// rows of a repository made equal to its refs, with the push events that were missed, once (the
// repository's lock is held, and afterwards rows and refs agree). At start every repository is
// compared; then, periodically, those with a ref update left pending (PendingRefUpdate).
import type { DomainContext, Services } from "../shared/context.js";
import { systemContext } from "../shared/context.js";
import { recordRefs, withRepository } from "./ref-updates.js";

/** A pending update younger than this may still be under way in another process. */
export const PENDING_GRACE_MS = 60_000;

export async function reconcileRepository(ctx: DomainContext, projectId: number): Promise<void> {
  if (!ctx.git.exists(projectId)) return;
  await withRepository(ctx, projectId, async () => {
    const pending = await ctx.db.pendingRefUpdate.findFirst({ where: { projectId }, orderBy: { id: "desc" }, select: { actorId: true } });
    await recordRefs(ctx, projectId, null, { actorId: pending?.actorId ?? null });
  });
}

/** The repositories whose ref updates were left pending: repaired. Returns how many. */
export async function repairPendingRefUpdates(services: Services, graceMs = PENDING_GRACE_MS): Promise<number> {
  const before = new Date(services.now().getTime() - graceMs);
  const rows = await services.db.pendingRefUpdate.findMany({ where: { createdAt: { lt: before } }, select: { projectId: true }, distinct: ["projectId"] });
  const ctx = systemContext(services);
  for (const { projectId } of rows) await reconcileRepository(ctx, projectId);
  return rows.length;
}

/** Every repository compared with its rows (at start), a few at a time. Returns how many were read. */
export async function reconcileAllRepositories(services: Services, log: (message: string, error?: unknown) => void): Promise<number> {
  const ctx = systemContext(services);
  let lastId = 0;
  let count = 0;
  for (;;) {
    const projects = await services.db.project.findMany({ where: { id: { gt: lastId } }, orderBy: { id: "asc" }, take: 100, select: { id: true } });
    if (!projects.length) return count;
    for (const { id } of projects) {
      await reconcileRepository(ctx, id).catch((error) => log(`repository of project ${id} could not be compared with its rows`, error));
      count++;
    }
    lastId = projects.at(-1)!.id;
  }
}

/** How often the pending ref updates are looked at. */
const REPAIR_INTERVAL_MS = 60_000;

/**
 * At start: every repository compared with its rows, in the background; then the pending updates
 * repaired every minute. Returns what stops it.
 */
export function startRepositoryRepair(services: Services, log: (message: string, error?: unknown) => void): () => void {
  let stopped = false;
  void reconcileAllRepositories(services, log).catch((error) => log("comparing repositories with their rows failed", error));
  const timer = setInterval(() => {
    if (!stopped) void repairPendingRefUpdates(services).catch((error) => log("repairing pending ref updates failed", error));
  }, REPAIR_INTERVAL_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
