// What group and project webhooks share in the schema: GitLab's Hook entity (url_variables and
// custom_headers as keys only, never the token or a value) extended per owner, and the root
// fields behind /groups/:id/hooks and /projects/:id/hooks and their key/value sub-resources,
// defined once for both owners (groupHooks/projectHooks, createGroupHook/createProjectHook, ...).
import { findHookOwner, resolveHookOwner, type HookOwnerRef } from "../domain/web-hooks/owners.js";
import { deleteHookSetting, setHookSetting, type HookSetting } from "../domain/web-hooks/settings.js";
import { BASE_HOOK_EVENTS, type HookEvent } from "../domain/web-hooks/switches.js";
import { createHook, deleteHook, rotateHookSigningSecret, updateHook } from "../domain/web-hooks/writes.js";
import { findHook, findHookToDelete, hookEntity, listHooks } from "../domain/web-hooks/queries.js";
import { type HookEntity } from "../domain/web-hooks/presenter.js";
import { BRANCH_FILTER_STRATEGIES } from "../domain/web-hooks/rules.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

export type HookOwnerKind = "group" | "project";

type HookRef = ReturnType<ReturnType<typeof builder.objectRef<HookEntity>>["implement"]>;

/** `group` -> the owner reference of the domain functions, from the route's `:id`. */
export const ownerRef = (kind: HookOwnerKind, id: string | number): HookOwnerRef =>
  kind === "group" ? { group: String(id) } : { project: String(id) };

/** `group` -> `Group`: the owner's part of the root field names. */
export const ownerName = (kind: HookOwnerKind) => (kind === "group" ? "Group" : "Project");

const HookKey = builder.objectRef<{ key: string }>("HookKey").implement({
  fields: (t) => ({ key: t.exposeString("key") }),
});

/** `value` may be left out: an entry as GET shows it (`{key}`) changes nothing when sent back. */
const HookKeyValueInput = builder.inputType("HookKeyValueInput", {
  fields: (t) => ({ key: t.string({ required: true }), value: t.string({ required: false }) }),
});

const BranchFilterStrategyEnum = builder.enumType("BranchFilterStrategy", { values: BRANCH_FILTER_STRATEGIES });

const AlertStatusEnum = builder.enumType("HookAlertStatus", { values: ["executable", "temporarily_disabled", "disabled"] as const });

interface HookTypeOptions {
  owner: "group_id" | "project_id";
  /** the owner entity's switches, after the base entity's */
  events: readonly HookEvent[];
  /** false: without url_variables and custom_headers (GitLab's project hook list leaves them out) */
  keyMaps?: boolean;
}

/** Fields in GitLab's order: API::Entities::Hook, then the owner's entity. */
export function hookType(name: string, { owner, events, keyMaps = true }: HookTypeOptions): HookRef {
  return builder.objectRef<HookEntity>(name).implement({
    fields: (t) => {
      const switches = (list: readonly HookEvent[]) =>
        Object.fromEntries(list.map((event) => [event, t.boolean({ resolve: (hook) => hook.events[event] })]));
      return {
        id: t.exposeInt("id"),
        url: t.exposeString("url"),
        name: t.exposeString("name", { nullable: true }),
        description: t.exposeString("description", { nullable: true }),
        created_at: t.expose("created_at", { type: "DateTime" }),
        ...switches(BASE_HOOK_EVENTS),
        enable_ssl_verification: t.exposeBoolean("enable_ssl_verification"),
        alert_status: t.expose("alert_status", { type: AlertStatusEnum }),
        disabled_until: t.expose("disabled_until", { type: "DateTime", nullable: true }),
        ...(keyMaps && { url_variables: t.expose("url_variables", { type: [HookKey] }) }),
        push_events_branch_filter: t.exposeString("push_events_branch_filter", { nullable: true }),
        branch_filter_strategy: t.exposeString("branch_filter_strategy"),
        custom_webhook_template: t.exposeString("custom_webhook_template", { nullable: true }),
        ...(keyMaps && { custom_headers: t.expose("custom_headers", { type: [HookKey] }) }),
        [owner]: t.int({ resolve: (hook) => hook[owner]! }),
        ...switches(events),
        signing_enabled: t.exposeBoolean("signing_enabled", { description: "Forgeline extension: deliveries carry Standard Webhooks signatures" }),
        signing_secret: t.exposeString("signing_secret", {
          nullable: true, description: "The whsec_ signing secret, only in the answer that generated it (null otherwise)",
        }),
      };
    },
  });
}

/** Create and edit parameters after `url`, in GitLab's declaration order. */
const hookPropertyArgs = (settable: readonly HookEvent[]) =>
  builder.args((t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
    ...(Object.fromEntries(settable.map((name) => [name, t.boolean({ required: false })])) as Record<HookEvent, ReturnType<typeof t.boolean>>),
    push_events_branch_filter: t.string({ required: false }),
    enable_ssl_verification: t.boolean({ required: false }),
    token: t.string({ required: false }),
    custom_webhook_template: t.string({ required: false }),
    branch_filter_strategy: t.field({ type: BranchFilterStrategyEnum, required: false }),
    url_variables: t.field({ type: [HookKeyValueInput], required: false }),
    custom_headers: t.field({ type: [HookKeyValueInput], required: false }),
    signing_enabled: t.boolean({ required: false }), // Forgeline extension: true signs deliveries (the answer shows the new secret once), false stops
  }));

const hookArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  hook_id: t.int({ required: true }),
}));

const settingArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  hook_id: t.int({ required: true }),
  key: t.string({ required: true }),
}));

interface HookFieldsOptions {
  /** the entity of GET one, POST and PUT */
  type: HookRef;
  /** the entity of the list */
  listType: HookRef;
  settable: readonly HookEvent[];
}

/** The owner's hook root fields: list, one, create, update, delete, and the URL variable and header keys. */
export function hookRootFields(kind: HookOwnerKind, { type, listType, settable }: HookFieldsOptions): void {
  const Name = ownerName(kind);
  const properties = hookPropertyArgs(settable);
  const hooks = `/${kind}s/:id/hooks`;
  builder.queryFields((t) => ({
    [`${kind}Hooks`]: t.field({
      extensions: { rest: route.get(hooks), access: "authenticated" },
      type: [listType],
      args: { id: t.arg.id({ required: true }), ...pageArgs },
      resolve: async (_r, { id, ...args }, ctx) => rowsOf(ctx, await listHooks(ctx, await findHookOwner(ctx, ownerRef(kind, id)), args)),
    }),
    [`${kind}Hook`]: t.field({
      extensions: { rest: route.get(`${hooks}/:hook_id`), access: "authenticated" },
      type,
      args: hookArgs,
      resolve: async (_r, args, ctx) => hookEntity(ctx, await findHook(ctx, ownerRef(kind, args.id), args.hook_id)),
    }),
  }));
  builder.mutationFields((t) => {
    // PUT and DELETE .../hooks/:hook_id/url_variables/:key (and custom_headers) both answer 204
    const setting = (name: HookSetting, action: "set" | "delete") =>
      action === "set"
        ? t.boolean({
          extensions: { rest: route.put(`${hooks}/:hook_id/${name}/:key`, { status: 204 }), access: "authenticated" },
          args: { ...settingArgs, value: t.arg.string({ required: true }) },
          resolve: async (_r, a, ctx) => setHookSetting(ctx, await findHook(ctx, ownerRef(kind, a.id), a.hook_id), name, a.key, a.value).then(() => true),
        })
        : t.boolean({
          extensions: { rest: route.del(`${hooks}/:hook_id/${name}/:key`), access: "authenticated" },
          args: settingArgs,
          resolve: async (_r, a, ctx) => deleteHookSetting(ctx, await findHook(ctx, ownerRef(kind, a.id), a.hook_id), name, a.key).then(() => true),
        });
    return {
      [`create${Name}Hook`]: t.field({
        extensions: { rest: route.post(hooks), access: "authenticated" },
        type,
        args: { id: t.arg.id({ required: true }), url: t.arg.string({ required: true }), ...properties },
        resolve: async (_r, { id, ...input }, ctx) => createHook(ctx, await resolveHookOwner(ctx, ownerRef(kind, id)), input),
      }),
      [`update${Name}Hook`]: t.field({
        extensions: { rest: route.put(`${hooks}/:hook_id`), access: "authenticated" },
        type,
        args: {
          ...hookArgs,
          url: t.arg.string({ required: true }),
          ...properties,
          ...(kind === "group" && { service_access_tokens_expiration_enforced: t.arg.boolean({ required: false }) }),
        },
        resolve: async (_r, { id, hook_id, ...input }, ctx) => updateHook(ctx, await findHook(ctx, ownerRef(kind, id), hook_id), input),
      }),
      /** DELETE honours If-Unmodified-Since (412 when the hook changed after it). */
      [`delete${Name}Hook`]: t.boolean({
        extensions: { rest: route.del(`${hooks}/:hook_id`), access: "authenticated" },
        args: hookArgs,
        resolve: async (_r, args, ctx) =>
          deleteHook(ctx, await findHookToDelete(ctx, ownerRef(kind, args.id), args.hook_id), ctx.request.headers.get("if-unmodified-since")),
      }),
      [`rotate${Name}HookSigningSecret`]: t.field({
        extensions: { rest: route.post(`${hooks}/:hook_id/signing_secret`), access: "authenticated" },
        description: "Forgeline extension: a new signing secret, shown once; the previous one signs too during WEBHOOK_SIGNING_GRACE_HOURS",
        type,
        args: hookArgs,
        resolve: async (_r, args, ctx) => rotateHookSigningSecret(ctx, await findHook(ctx, ownerRef(kind, args.id), args.hook_id)),
      }),
      [`set${Name}HookUrlVariable`]: setting("url_variables", "set"),
      [`delete${Name}HookUrlVariable`]: setting("url_variables", "delete"),
      [`set${Name}HookCustomHeader`]: setting("custom_headers", "set"),
      [`delete${Name}HookCustomHeader`]: setting("custom_headers", "delete"),
    };
  });
}
