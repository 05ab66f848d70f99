// GitLab's WebHooks::AutoDisabling for group and project hooks: a successful delivery (2xx/3xx) resets the
// failure count; a failed one counts (up to 40) and, from the 4th failure on, disables the hook
// until now + 1 min x 2^(failures before - 3), at most a day; at 40 it stays disabled until a
// successful test (or an edit of the counters) re-enables it. Failures of a hook that is not
// executable are not counted. Updates are conditional on the count read, so concurrent workers
// never lose a failure.
import type { WebHook } from "../generated/prisma/client.js";
import type { Tx } from "../domain/shared/events.js";
import { alertStatus, PERMANENTLY_DISABLED_THRESHOLD, TEMPORARILY_DISABLED_THRESHOLD } from "../domain/web-hooks/rows.js";

const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 86_400_000;

export const isExecutable = (hook: Pick<WebHook, "recentFailures" | "disabledUntil">, now: Date) =>
  alertStatus(hook, now) === "executable";

/** The new failure state after one more failure (GitLab's backoff!), or null when nothing changes. */
export function failureState(hook: Pick<WebHook, "recentFailures" | "disabledUntil">, now: Date) {
  if (!isExecutable(hook, now)) return null;
  const recentFailures = Math.min(hook.recentFailures + 1, PERMANENTLY_DISABLED_THRESHOLD + 1);
  if (recentFailures <= TEMPORARILY_DISABLED_THRESHOLD) return { recentFailures, disabledUntil: hook.disabledUntil };
  const exponent = hook.recentFailures - TEMPORARILY_DISABLED_THRESHOLD;
  const backoff = Math.min(Math.max(INITIAL_BACKOFF_MS * 2 ** exponent, INITIAL_BACKOFF_MS), MAX_BACKOFF_MS);
  return { recentFailures, disabledUntil: new Date(now.getTime() + backoff) };
}

export async function recordFailure(db: Tx, hookId: number, now: () => Date): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const hook = await db.webHook.findUnique({ where: { id: hookId } });
    if (!hook) return;
    const next = failureState(hook, now());
    if (!next) return;
    const { count } = await db.webHook.updateMany({
      where: { id: hookId, recentFailures: hook.recentFailures, disabledUntil: hook.disabledUntil },
      data: next,
    });
    if (count === 1) return;
  }
}

/** GitLab's enable!: a success clears the failure state. */
export async function recordSuccess(db: Tx, hookId: number): Promise<void> {
  await db.webHook.updateMany({
    where: { id: hookId, OR: [{ recentFailures: { not: 0 } }, { disabledUntil: { not: null } }] },
    data: { recentFailures: 0, disabledUntil: null },
  });
}
