// Webhooks on Project and Group (GitLab has no public hook type: the REST entity is the model),
// with each hook's delivery history. The domain's hook list (the REST route's function) decides
// who sees them: project Maintainers, group Owners and administrators; the histories of a page of
// hooks are read together (listHookEvents). The entity holds no token and no URL variable
// or custom header value, the history's recorded headers have them redacted.
import type { Context } from "../../context.js";
import { PROJECT_HOOK_EVENTS } from "../../domain/web-hooks/owners.js";
import { shownGroupAccess, shownProjectAccess, type GroupOrProjectAccess } from "../../domain/shared/parents.js";
import { BASE_HOOK_EVENTS, HOOK_EVENTS, type HookEvent } from "../../domain/web-hooks/switches.js";
import { listHooks } from "../../domain/web-hooks/queries.js";
import { type HookEntity } from "../../domain/web-hooks/presenter.js";
import { hookEventFilters, listHookEvents, type HookEventEntity } from "../../domain/web-hooks/history.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { GroupRef } from "../groups/types.js";
import { ProjectRef } from "../projects/types.js";

const HookAlertStatusEnum = builder.enumType("HookAlertStatus", {
  values: { EXECUTABLE: { value: "executable" }, TEMPORARILY_DISABLED: { value: "temporarily_disabled" }, DISABLED: { value: "disabled" } } as const,
});

const HookHeaderRef = builder.objectRef<[string, string]>("HookHeader");

builder.objectType(HookHeaderRef, {
  fields: (t) => ({
    name: t.string({ resolve: ([name]) => name }),
    value: t.string({ description: "[REDACTED] for the token and custom headers.", resolve: ([, value]) => value }),
  }),
});

const HookEventRef = builder.objectRef<HookEventEntity>("HookEvent");

builder.objectType(HookEventRef, {
  description: "A delivery of a webhook (REST: WebHookLog).",
  fields: (t) => ({
    id: t.id({ resolve: (event) => `gid://forgeline/WebHookLog/${event.id}` }),
    trigger: t.exposeString("trigger"),
    url: t.exposeString("url", { description: "As configured: URL variables as placeholders, user info masked." }),
    requestHeaders: t.field({ type: [HookHeaderRef], resolve: (event) => Object.entries(event.request_headers) }),
    responseStatus: t.exposeString("response_status"),
    executionDuration: t.exposeFloat("execution_duration", { description: "Seconds." }),
    createdAt: t.expose("created_at", { type: "Time" }),
  }),
});

const HookEventConnection = countedConnection(HookEventRef, "HookEvent");

export type HookKind = "project" | "group";

/** The type a hook's global id names, per owner kind. */
export const HOOK_TYPENAMES = { project: "ProjectHook", group: "GroupHook" } as const;

/** `push_events` -> `pushEvents`: a switch's field name. */
export const camel = (name: string) => name.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());

/** ProjectHook and GroupHook: REST's fields in camelCase, the owner's event switches. */
function hookType(name: "ProjectHook" | "GroupHook", events: readonly HookEvent[]) {
  const ref = builder.objectRef<HookEntity>(name);
  builder.objectType(ref, {
    description: "A webhook (its token, URL variable and custom header values are never shown).",
    fields: (t) => ({
      id: t.id({ resolve: (hook) => `gid://forgeline/${name}/${hook.id}` }),
      url: t.exposeString("url", { description: "URL variables as {placeholders}." }),
      name: t.exposeString("name", { nullable: true }),
      description: t.exposeString("description", { nullable: true }),
      createdAt: t.expose("created_at", { type: "Time" }),
      enableSslVerification: t.exposeBoolean("enable_ssl_verification"),
      alertStatus: t.expose("alert_status", { type: HookAlertStatusEnum }),
      disabledUntil: t.expose("disabled_until", { type: "Time", nullable: true }),
      pushEventsBranchFilter: t.exposeString("push_events_branch_filter", { nullable: true }),
      branchFilterStrategy: t.exposeString("branch_filter_strategy"),
      urlVariableKeys: t.stringList({ resolve: (hook) => hook.url_variables.map((entry) => entry.key) }),
      customHeaderKeys: t.stringList({ resolve: (hook) => hook.custom_headers.map((entry) => entry.key) }),
      signingEnabled: t.exposeBoolean("signing_enabled", { description: "Deliveries carry Standard Webhooks signatures (the secret is never shown here)." }),
      ...Object.fromEntries(events.map((event) => [camel(event), t.boolean({ resolve: (hook) => hook.events[event] })])),
      events: t.connection(
        {
          type: HookEventRef,
          description: "Deliveries of the last seven days, newest first.",
          args: { status: t.arg.stringList({ description: "successful, client_failure, server_failure or HTTP status codes." }) },
          resolve: (hook, args, ctx) => offsetConnection(args, (page) => listHookEvents(ctx, hook, hookEventFilters(args), page)),
        },
        HookEventConnection,
      ),
    }),
  });
  return ref;
}

export const ProjectHookRef = hookType("ProjectHook", [...new Set([...BASE_HOOK_EVENTS, ...PROJECT_HOOK_EVENTS])]);
export const GroupHookRef = hookType("GroupHook", HOOK_EVENTS);
const ProjectHookConnection = countedConnection(ProjectHookRef, "ProjectHook");
const GroupHookConnection = countedConnection(GroupHookRef, "GroupHook");

const hooksOf = (ctx: Context, owner: GroupOrProjectAccess, args: Parameters<typeof offsetConnection>[0]) =>
  orNull(() => offsetConnection(args, (page) => listHooks(ctx, owner, page)));

const HOOKS_DESCRIPTION = "Webhooks, oldest first; null for callers who may not manage them.";

builder.objectFields(ProjectRef, (t) => ({
  hooks: t.connection(
    {
      type: ProjectHookRef, nullable: true, description: HOOKS_DESCRIPTION,
      resolve: async (project, args, ctx) => hooksOf(ctx, await shownProjectAccess(ctx, project), args),
    },
    ProjectHookConnection,
  ),
}));

builder.objectFields(GroupRef, (t) => ({
  hooks: t.connection(
    {
      type: GroupHookRef, nullable: true, description: HOOKS_DESCRIPTION,
      resolve: async (group, args, ctx) => hooksOf(ctx, await shownGroupAccess(ctx, group), args),
    },
    GroupHookConnection,
  ),
}));
