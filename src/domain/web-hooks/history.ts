// The hook event API (lib/api/hooks/events.rb, resend_hook.rb, trigger_test.rb): the delivery
// history of the last seven days, resending a recorded delivery, and test deliveries, for group and
// project hooks alike. Same access as the hooks themselves (hook-owners.ts); resend and test are
// rate-limited per user (per hook; per group or project) while their feature flags are on.
// The sending itself is src/webhooks', reached through ctx.hookDelivery (delivery.ts).
import { randomUUID } from "node:crypto";
import type { Prisma, WebHookLog } from "../../generated/prisma/client.js";
import { AppError, paramError, recordNotFound } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { isFeatureEnabled, type FeatureName } from "../features/flags.js";
import { resolveHookOwner, type HookOwnerRef } from "./owners.js";
import { findHookRow } from "./service.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { digest } from "../shared/secrets.js";
import { INTERNAL_ERROR } from "./delivery.js";
import { checkRateLimit } from "../shared/rate-limit.js";
import { triggerOf, type TestTrigger } from "./triggers.js";

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

const STATUS_CATEGORIES: Record<string, Prisma.WebHookLogWhereInput> = {
  successful: { responseCode: { gte: 200, lte: 299 } },
  client_failure: { responseCode: { gte: 400, lte: 499 } },
  server_failure: { OR: [{ responseCode: { gte: 500, lte: 599 } }, { responseStatus: INTERNAL_ERROR }] },
};

/** Rack::Utils::HTTP_STATUS_CODES, the codes the status filter accepts. */
const HTTP_STATUS_CODES = new Set([
  100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308,
  400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423, 424, 425,
  426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511,
]);

const DAY_MS = 86_400_000;
const RATE_LIMIT = 5;

function statusFilter(status: readonly string[] | null | undefined): Prisma.WebHookLogWhereInput {
  const values = (status ?? []).flatMap((value) => value.split(",")).map((value) => value.trim()).filter(Boolean);
  if (!values.length) return {};
  const filters = values.map((value) => {
    if (STATUS_CATEGORIES[value]) return STATUS_CATEGORIES[value]!;
    if (/^\d{3}$/.test(value) && HTTP_STATUS_CODES.has(Number(value))) return { responseCode: Number(value) };
    throw paramError("status does not have a valid value");
  });
  return { OR: filters };
}

/** GET .../events: newest first, from the start of the day seven days ago until now. */
export async function listHookEvents(
  ctx: DomainContext, ref: HookOwnerRef, hookId: number, args: PageArgs & { status?: readonly string[] | null },
): Promise<Page<HookEventEntity>> {
  const owner = await resolveHookOwner(ctx, ref);
  const filter = statusFilter(args.status);
  const hook = await findHookRow(ctx, owner, hookId);
  const now = ctx.now();
  const start = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - 7 * DAY_MS);
  const where: Prisma.WebHookLogWhereInput = { hookId: hook.id, createdAt: { gte: start, lte: now }, ...filter };
  const orderBy: Prisma.WebHookLogOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];
  const page = await paginate(
    args,
    (cap) => ctx.db.webHookLog.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.webHookLog.findMany({ where, orderBy, skip, take }),
  );
  return { ...page, rows: page.rows.map(toEntity) };
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
export async function resendHookEvent(ctx: DomainContext, ref: HookOwnerRef, hookId: number, eventId: number): Promise<{ response_status: number }> {
  const owner = await resolveHookOwner(ctx, ref);
  const hook = await findHookRow(ctx, owner, hookId);
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
export async function testHook(ctx: DomainContext, ref: HookOwnerRef, hookId: number, trigger: TestTrigger): Promise<{ message: string }> {
  const owner = await resolveHookOwner(ctx, ref);
  const hook = await findHookRow(ctx, owner, hookId);
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
