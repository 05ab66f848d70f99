// Per-request context shared by /graphql and /api/v4: services, the acting user, and the
// REST response bag that resolvers fill (pagination) and the REST adapter renders as headers.
import { currentRequest, noteUser } from "./observability/request-scope.js";
import { authenticate, type Credentials } from "./domain/auth/callers.js";
import type { DomainContext, Services } from "./domain/shared/context.js";
import type { PageInfo } from "./domain/shared/pagination.js";
import type { Download } from "./domain/shared/downloads.js";
import { createLoaders } from "./domain/shared/loaders.js";

export interface RestBag {
  page?: PageInfo;
  /** keyset pagination: the query params of the next page, or null at the end */
  keysetNext?: Record<string, string> | null;
  /** more response headers (the files API's X-Gitlab-* headers) */
  headers?: Record<string, string>;
  /** a `download` route's file: sent as the body instead of the root field's JSON */
  download?: Download;
  /** the status when the route's own depends on the call (GitLab's `status :ok` inside an endpoint) */
  status?: number;
  /** a body in place of the root field's value (a cherry-pick's dry run answers {"dry_run":"success"}) */
  answer?: Record<string, unknown>;
  /** with_labels_details: the answer's issuables show their labels as LabelBasic objects */
  labelsDetails?: boolean;
}

export interface Context extends DomainContext {
  request: Request;
  rest: RestBag;
}

/** Token and sudo as GitLab reads them: headers first, then query parameters. */
export function credentialsOf(request: Request, params: Record<string, unknown> = {}): Credentials {
  const headers = request.headers;
  const bearer = headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
  const url = new URL(request.url);
  const token =
    headers.get("private-token") ??
    bearer ??
    url.searchParams.get("private_token") ??
    url.searchParams.get("access_token") ??
    stringParam(params.private_token);
  const sudo = headers.get("sudo") ?? url.searchParams.get("sudo") ?? stringParam(params.sudo);
  return { token: token || undefined, sudo: sudo || undefined };
}

const stringParam = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * `admitting`: the token scopes this request accepts (REST knows them from the route).
 * `cachesRefreshed`: the look at other processes' writes, when the caller started it already.
 */
export async function createContext(
  services: Services,
  request: Request,
  params?: Record<string, unknown>,
  admitting?: readonly string[],
  cachesRefreshed?: Promise<void>,
): Promise<Context> {
  await (cachesRefreshed ?? services.caches.registry.refresh());
  const actor = await authenticate(services, credentialsOf(request, params), admitting);
  noteUser(actor?.user);
  const client = { userAgent: request.headers.get("user-agent"), ipAddress: currentRequest()?.remoteAddress ?? null };
  return { ...services, actor, request, rest: {}, loaders: createLoaders(services), client };
}
