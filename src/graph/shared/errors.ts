// Domain errors on the public graph, as GitLab's GraphQL API answers them: what the caller may not
// see is null (queries) or GitLab's "resource not available" error (mutations), never a message
// that tells a hidden object from a missing one; a refused or invalid write lists its reasons in
// the payload's `errors`.
import { GraphQLError } from "graphql";
import { AppError, appErrorOf } from "../../errors.js";

const HIDDEN = new Set([401, 403, 404]);

/**
 * A write the domain refused because the caller may not see or do it: 403 and 404, and 401 for
 * anonymous callers (for a signed-in caller the domain's 401 is a rule, e.g. a second approval).
 */
const hiddenWrite = (status: number, signedIn: boolean) => status === 403 || status === 404 || (status === 401 && !signedIn);

export const RESOURCE_NOT_AVAILABLE =
  "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

export const resourceNotAvailable = () => new GraphQLError(RESOURCE_NOT_AVAILABLE, { extensions: { code: "RESOURCE_NOT_AVAILABLE" } });

/** The value, or null when the domain refuses to show it (not found, not allowed, not signed in). */
export async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (HIDDEN.has(appErrorOf(error)?.status ?? 0)) return null;
    throw error;
  }
}

/** A mutation payload `{ <key>: value, errors: [] }`, or the domain's refusal in `errors`. */
export async function payload<K extends string, T>(
  ctx: { actor: unknown },
  key: K,
  write: () => Promise<T>,
): Promise<Record<K, T | null> & { errors: string[] }> {
  try {
    return { [key]: await write(), errors: [] } as Record<K, T | null> & { errors: string[] };
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    if (hiddenWrite(appError.status, !!ctx.actor)) throw resourceNotAvailable();
    return { [key]: null, errors: messagesOf(appError) } as Record<K, T | null> & { errors: string[] };
  }
}

/**
 * A write whose domain 403s that carry a reason are rules the caller ran into (a protected branch,
 * a user state that does not allow the change): the reason goes to the payload's `errors`. A bare
 * 403 is the permission check and stays "resource not available". Only writes whose 403 reasons
 * are all such rules opt in: elsewhere a reason may tell a hidden object from a missing one.
 */
export async function refusalsAsErrors<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const reason = refusalReasonOf(error);
    throw reason == null ? error : ruleError(reason);
  }
}

/** The payload's error for a rule's refusal (its status no longer matters once it is a message). */
export const ruleError = (message: string) => new AppError(422, { message });

/** The reason of a 403 that carries one ("403 Forbidden - <reason>" or a service's bare message). */
function refusalReasonOf(error: unknown): string | null {
  const appError = appErrorOf(error);
  const message = appError?.status === 403 ? (appError.body as { message?: unknown }).message : undefined;
  if (typeof message !== "string" || message === "403 Forbidden") return null;
  return message.replace(/^403 Forbidden - /, "");
}

/**
 * GitLab's full messages without the REST status: `{"title": ["can't be blank"]}` → ["title can't be blank"],
 * `{"error": "Repository Error"}` → ["Repository Error"].
 */
export function messagesOf(error: AppError): string[] {
  const body = error.body as { message?: unknown; error?: unknown };
  const message = body.message ?? body.error;
  if (message && typeof message === "object" && !Array.isArray(message)) {
    // `{ error: text }` is a service's failure (render_api_error!), not a field's
    return Object.entries(message as Record<string, unknown>).flatMap(([field, list]) =>
      (Array.isArray(list) ? list : [list]).map((text) => (field === "error" ? String(text) : `${field} ${String(text)}`)));
  }
  // REST messages start with their status ("400 Bad request - ..."), GraphQL's do not
  return [String(message ?? error.message).replace(/^\d{3} /, "")];
}
