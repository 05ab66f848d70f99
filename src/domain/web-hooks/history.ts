// The hook event API (lib/api/hooks/events.rb, resend_hook.rb, trigger_test.rb): the delivery
// history of the last seven days, resending a recorded delivery, and test deliveries, for group and
// project hooks alike. Same access as the hooks themselves (web-hooks/owners.ts); resend and test are
// rate-limited per user (per hook; per group or project) while their feature flags are on.
// The sending itself is src/webhooks', reached through ctx.hookDelivery (delivery.ts).
import { randomUUID } from "node:crypto";
import { Prisma, type WebHook, type WebHookLog } from "../../generated/prisma/client.js";
import { AppError, paramError, recordNotFound } from "../../errors.js";
import { childPages } from "../shared/child-pages.js";
import type { DomainContext, Services } from "../shared/context.js";
import { isFeatureEnabled, type FeatureName } from "../features/flags.js";
import type { OwnedHook } from "./owners.js";
import { pageKey, type Page, type PageArgs } from "../shared/pagination.js";
import { digest } from "../shared/secrets.js";
import { INTERNAL_ERROR } from "./delivery.js";
import { checkRateLimit } from "../shared/rate-limit.js";
import { triggerOf, type TestTrigger } from "./triggers.js";
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";

export interface HookEventEntity {
  id: number;
  url: string;
  trigger: string;
  request_headers: Record<string, string>;
  request_data: unknown;
  response_headers: Record<string, string>;
  response_body: string;
  execution_duration: number;
  response_status: string;
  created_at: Date;
}

/** One value of the status filter: a range of response codes, server failures with the internal errors. */
interface StatusMatch {
  codes: [number, number];
  internalError?: boolean;
}

const STATUS_CATEGORIES: Record<string, StatusMatch> = {
  successful: { codes: [200, 299] },
  client_failure: { codes: [400, 499] },
  server_failure: { codes: [500, 599], internalError: true },
};

/** Rack::Utils::HTTP_STATUS_CODES, the codes the status filter accepts. */
const HTTP_STATUS_CODES = new Set([
  100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308,
  400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423, 424, 425,
  426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511,
]);

const DAY_MS = 86_400_000;
const RATE_LIMIT = 5;

/** The status filter's values, comma-separated ones split. */
const statusValues = (status: readonly string[] | null | undefined) =>
  (status ?? []).flatMap((value) => value.split(",")).map((value) => value.trim()).filter(Boolean);

/** What the status filter's values match; refused unless each is a category or a known HTTP code. */
function statusMatches(values: string[]): StatusMatch[] {
  return values.map((value) => {
    if (STATUS_CATEGORIES[value]) return STATUS_CATEGORIES[value]!;
    if (/^\d{3}$/.test(value) && HTTP_STATUS_CODES.has(Number(value))) return { codes: [Number(value), Number(value)] };
    throw paramError("status does not have a valid value");
  });
}

/** The status filter in SQL: a response code in one of the ranges, or a delivery that failed inside Forgeline. */
function statusCondition(matches: StatusMatch[]): Prisma.Sql {
  if (!matches.length) return Prisma.empty;
  const each = matches.map(({ codes: [low, high], internalError }) =>
    internalError ? Prisma.sql`"responseCode" BETWEEN ${low} AND ${high} OR "responseStatus" = ${INTERNAL_ERROR}` : Prisma.sql`"responseCode" BETWEEN ${low} AND ${high}`);
  return Prisma.sql`AND (${Prisma.join(each, " OR ")})`;
}

/** The history's window: from the start of the day seven days ago until now. */
function historySince(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - 7 * DAY_MS);
}

/** The history's filter: the status filter's values (comma-separated ones split), each a category or an HTTP code. */
export interface HookEventFilters {
  status: string[];
}

/** The filters of a history request; a status that is neither a category nor a known HTTP code is refused (400). */
export function hookEventFilters(args: { status?: readonly string[] | null }): HookEventFilters {
  const status = statusValues(args.status);
  statusMatches(status);
  return { status };
}

/**
 * GET .../hooks/:hook_id/events of a hook found through its owner (or of a hook the graph listed,
 * which checked the same): newest first, from the start of the day seven days ago until now. The
 * same page of every hook asked for in a request is read in one statement (hookEventsLoader).
 */
export function listHookEvents(ctx: Pick<DomainContext, "loaders">, hook: Pick<WebHook, "id">, filters: HookEventFilters, page: PageArgs): Promise<Page<HookEventEntity>> {
  return ctx.loaders.get(hookEventsLoader).load({ hookId: hook.id, status: filters.status, page: pageKey(page) });
}

/** The same page of many hooks' histories, with the same status filter (`status`: its values). */
interface HookEventsKey {
  hookId: number;
  status: string[];
  page: PageArgs;
}

const hookEventsCacheKey = (key: HookEventsKey) => JSON.stringify(key);

/** listHookEvents of many hooks in one statement per kind of page asked for (a page of hooks asks for one). */
async function batchHookEvents(services: Services, keys: readonly HookEventsKey[]): Promise<Page<HookEventEntity>[]> {
  const now = services.now();
  const groups = new Map<string, HookEventsKey[]>();
  for (const key of keys) {
    const group = hookEventsCacheKey({ ...key, hookId: 0 });
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const pages = new Map<string, Page<HookEventEntity>>();
  for (const group of groups.values()) {
    const { status, page } = group[0]!;
    const hookIds = group.map((key) => key.hookId);
    const where = Prisma.sql`"hookId" IN (${Prisma.join(hookIds)}) AND "createdAt" >= ${historySince(now)} AND "createdAt" <= ${now}
      ${statusCondition(statusMatches(status))}`;
    const byHook = await childPages<WebHookLog>(
      services.db, { table: "WebHookLog", parentColumn: "hookId", where, orderBy: Prisma.sql`"createdAt" DESC, "id" DESC` }, hookIds, page,
    );
    for (const key of group) {
      const events = byHook.get(key.hookId)!;
      pages.set(hookEventsCacheKey(key), { ...events, rows: events.rows.map(toEntity) });
    }
  }
  return keys.map((key) => pages.get(hookEventsCacheKey(key))!);
}

function toEntity(row: WebHookLog): HookEventEntity {
  return {
    id: row.id,
    url: row.url,
    trigger: row.trigger,
    request_headers: JSON.parse(row.requestHeaders),
    request_data: JSON.parse(row.requestData),
    response_headers: JSON.parse(row.responseHeaders),
    response_body: row.responseBody,
    execution_duration: row.executionDuration,
    response_status: row.responseStatus,
    created_at: row.createdAt,
  };
}

/** POST .../events/:hook_event_id/resend: the recorded body again, with its Idempotency-Key. */
export async function resendHookEvent(ctx: DomainContext, { hook }: OwnedHook, eventId: number): Promise<{ response_status: number }> {
  await throttle(ctx, "web_hook_event_resend_api_endpoint_rate_limit", `web_hook_event_resend:${hook.id}`);
  const log = await ctx.db.webHookLog.findFirst({ where: { id: eventId, hookId: hook.id } });
  if (!log) throw recordNotFound();
  if (log.urlHash && digest(ctx.hookDelivery.interpolatedUrl(ctx, hook)) !== log.urlHash) {
    throw unprocessable("The hook URL has changed, and this log entry cannot be retried");
  }
  const result = await ctx.hookDelivery.deliverNow(ctx, {
    hook, trigger: log.trigger, data: JSON.parse(log.requestData), recorded: true,
    idempotencyKey: log.idempotencyKey, eventUuid: randomUUID(),
  });
  if (!result.sent || result.status === null) throw unprocessable(result.message);
  return { response_status: result.status };
}

/** POST .../test/:trigger: a sample delivery, sent now even to a disabled hook, and recorded. */
export async function testHook(ctx: DomainContext, { hook, owner }: OwnedHook, trigger: TestTrigger): Promise<{ message: string }> {
  await throttle(ctx, "web_hook_test_api_endpoint_rate_limit", `web_hook_test:${owner.kind}:${owner.id}`);
  const data = await ctx.hookDelivery.samplePayload(ctx, owner, trigger, ctx.actor!.user);
  const result = await ctx.hookDelivery.deliverNow(ctx, {
    hook, trigger: triggerOf(trigger)!, data, force: true, idempotencyKey: randomUUID(), eventUuid: randomUUID(),
  });
  const ok = result.sent && result.status !== null && result.status >= 200 && result.status < 300;
  if (!ok) throw unprocessable(result.message);
  return { message: "201 Created" };
}

/** Counts the caller's request against the endpoint's limit (per scope and user) while the flag is on. */
async function throttle(ctx: DomainContext, flag: FeatureName, scope: string): Promise<void> {
  if (!(await isFeatureEnabled(ctx, flag))) return;
  await checkRateLimit(ctx.db, ctx.now(), `${scope}:${ctx.actor!.user.id}`, RATE_LIMIT);
}

const unprocessable = (message: string) => new AppError(422, { message });

/** A page of each hook's delivery history (`events(first:)` of a page of hooks), in one statement. */
const hookEventsLoader: LoaderFactory<DataLoader<HookEventsKey, Page<HookEventEntity>, string>> = (services) =>
  new DataLoader((keys) => batchHookEvents(services, keys), { cacheKeyFn: hookEventsCacheKey });
