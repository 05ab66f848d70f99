// GitLab's `destroy_conditionally!`: a DELETE carrying If-Unmodified-Since answers 412 when the
// resource changed after that time (an unparsable header is ignored, as Rails does).
import { AppError } from "../errors.js";

export function assertUnmodifiedSince(updatedAt: Date, header: string | null | undefined): void {
  const since = header ? Date.parse(header) : NaN;
  if (!Number.isNaN(since) && updatedAt.getTime() > since) throw new AppError(412, { message: "412 Precondition Failed" });
}
