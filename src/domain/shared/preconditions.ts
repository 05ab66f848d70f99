// Conditions a write checks before it happens: GitLab's `destroy_conditionally!` (a DELETE carrying
// If-Unmodified-Since answers 412 when the resource changed after that time; an unparsable header
// is ignored, as Rails does), and names still free when the write commits.
import { AppError } from "../../errors.js";

export function assertUnmodifiedSince(updatedAt: Date, header: string | null | undefined): void {
  const since = header ? Date.parse(header) : NaN;
  if (!Number.isNaN(since) && updatedAt.getTime() > since) throw new AppError(412, { message: "412 Precondition Failed" });
}

/**
 * Runs `write`, whose uniqueness was checked before it began. When a concurrent request (in this
 * process or another) took the name in between, the unique index refuses the insert; `recheck`
 * then throws the error the check gives now that the other row exists (never a 500).
 */
export async function recheckIfTaken<T>(write: () => Promise<T>, recheck: () => Promise<void>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") await recheck();
    throw error;
  }
}
