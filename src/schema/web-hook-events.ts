// Hook delivery history, resend and test: GitLab's WebHookLog entity and, per owner (group or
// project), the root fields behind .../hooks/:hook_id/events, .../events/:hook_event_id/resend and
// .../test/:trigger.
import { hookEventFilters, listHookEvents, resendHookEvent, testHook, type HookEventEntity } from "../domain/web-hooks/history.js";
import { resolveHookOwner } from "../domain/web-hooks/owners.js";
import { findHook, findOwnedHook } from "../domain/web-hooks/queries.js";
import { TEST_TRIGGERS } from "../domain/web-hooks/triggers.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { ownerName, ownerRef, type HookOwnerKind } from "./web-hooks.js";
import * as route from "../rest/route.js";

export const WebHookLogType = builder.objectRef<HookEventEntity>("WebHookLog").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    url: t.exposeString("url"),
    trigger: t.exposeString("trigger"),
    request_headers: t.expose("request_headers", { type: "JSON" }),
    request_data: t.expose("request_data", { type: "JSON" }),
    response_headers: t.expose("response_headers", { type: "JSON" }),
    response_body: t.exposeString("response_body"),
    execution_duration: t.exposeFloat("execution_duration"),
    response_status: t.exposeString("response_status"),
    created_at: t.expose("created_at", { type: "DateTime" }),
  }),
});

const RetryWebhookEvent = builder.objectRef<{ response_status: number }>("RetryWebhookEvent").implement({
  fields: (t) => ({ response_status: t.exposeInt("response_status") }),
});

const HookTestResult = builder.objectRef<{ message: string }>("HookTestResult").implement({
  fields: (t) => ({ message: t.exposeString("message") }),
});

const HookTestTriggerEnum = builder.enumType("HookTestTrigger", { values: TEST_TRIGGERS });

/** groupHookEvents, resendGroupHookEvent, testGroupHook (and the project's). */
export function hookEventRootFields(kind: HookOwnerKind): void {
  const Name = ownerName(kind);
  const hook = `/${kind}s/:id/hooks/:hook_id`;
  builder.queryFields((t) => ({
    [`${kind}HookEvents`]: t.field({
      extensions: { rest: route.get(`${hook}/events`), access: "authenticated" },
      type: [WebHookLogType],
      args: {
        id: t.arg.id({ required: true }),
        hook_id: t.arg.int({ required: true }),
        status: t.arg.stringList({ required: false }),
        ...pageArgs,
      },
      resolve: async (_r, { id, hook_id, status, ...page }, ctx) => {
        const owner = await resolveHookOwner(ctx, ownerRef(kind, id));
        const filters = hookEventFilters({ status }); // 400 before a missing hook's 404
        return rowsOf(ctx, await listHookEvents(ctx, (await findOwnedHook(ctx, owner, hook_id)).hook, filters, page));
      },
    }),
  }));
  builder.mutationFields((t) => ({
    [`resend${Name}HookEvent`]: t.field({
      extensions: { rest: route.post(`${hook}/events/:hook_event_id/resend`), access: "authenticated" },
      type: RetryWebhookEvent,
      args: { id: t.arg.id({ required: true }), hook_id: t.arg.int({ required: true }), hook_event_id: t.arg.int({ required: true }) },
      resolve: async (_r, a, ctx) => resendHookEvent(ctx, await findHook(ctx, ownerRef(kind, a.id), a.hook_id), a.hook_event_id),
    }),
    [`test${Name}Hook`]: t.field({
      extensions: { rest: route.post(`${hook}/test/:trigger`), access: "authenticated" },
      type: HookTestResult,
      args: { id: t.arg.id({ required: true }), hook_id: t.arg.int({ required: true }), trigger: t.arg({ type: HookTestTriggerEnum, required: true }) },
      resolve: async (_r, a, ctx) => testHook(ctx, await findHook(ctx, ownerRef(kind, a.id), a.hook_id), a.trigger),
    }),
  }));
}
