// Group webhooks: GitLab's GroupHook entity (url_variables and custom_headers as keys only, never
// the token or a value) and the root fields behind /groups/:id/hooks and its sub-resources.
import { createGroupHook, deleteGroupHook, getGroupHook, HOOK_EVENTS, listGroupHooks, SETTABLE_HOOK_EVENTS, updateGroupHook, type GroupHookEntity } from "../domain/group-hooks.js";
import { deleteHookSetting, setHookSetting } from "../domain/group-hook-settings.js";
import { BRANCH_FILTER_STRATEGIES } from "../domain/group-hooks-validation.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";

const HookKey = builder.objectRef<{ key: string }>("HookKey").implement({
  fields: (t) => ({ key: t.exposeString("key") }),
});

/** `value` may be left out: an entry as GET shows it (`{key}`) changes nothing when sent back. */
const HookKeyValueInput = builder.inputType("HookKeyValueInput", {
  fields: (t) => ({ key: t.string({ required: true }), value: t.string({ required: false }) }),
});

const BranchFilterStrategyEnum = builder.enumType("BranchFilterStrategy", { values: BRANCH_FILTER_STRATEGIES });

const AlertStatusEnum = builder.enumType("HookAlertStatus", { values: ["executable", "temporarily_disabled", "disabled"] as const });

/** Fields in GitLab's order: API::Entities::Hook, then EE::API::Entities::GroupHook. */
export const GroupHookType = builder.objectRef<GroupHookEntity>("GroupHook").implement({
  fields: (t) => {
    const event = (name: (typeof HOOK_EVENTS)[number]) => t.boolean({ resolve: (hook) => hook.events[name] });
    return {
      id: t.exposeInt("id"),
      url: t.exposeString("url"),
      name: t.exposeString("name", { nullable: true }),
      description: t.exposeString("description", { nullable: true }),
      created_at: t.expose("created_at", { type: "DateTime" }),
      push_events: event("push_events"),
      tag_push_events: event("tag_push_events"),
      merge_requests_events: event("merge_requests_events"),
      repository_update_events: event("repository_update_events"),
      enable_ssl_verification: t.exposeBoolean("enable_ssl_verification"),
      alert_status: t.expose("alert_status", { type: AlertStatusEnum }),
      disabled_until: t.expose("disabled_until", { type: "DateTime", nullable: true }),
      url_variables: t.expose("url_variables", { type: [HookKey] }),
      push_events_branch_filter: t.exposeString("push_events_branch_filter", { nullable: true }),
      branch_filter_strategy: t.exposeString("branch_filter_strategy"),
      custom_webhook_template: t.exposeString("custom_webhook_template", { nullable: true }),
      custom_headers: t.expose("custom_headers", { type: [HookKey] }),
      group_id: t.exposeInt("group_id"),
      ...Object.fromEntries(HOOK_EVENTS.slice(4).map((name) => [name, event(name)])),
    };
  },
});

const hookArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  hook_id: t.int({ required: true }),
}));

/** Create and edit parameters after `url`, in GitLab's declaration order. */
const hookPropertyArgs = builder.args((t) => ({
  name: t.string({ required: false }),
  description: t.string({ required: false }),
  ...(Object.fromEntries(SETTABLE_HOOK_EVENTS.map((name) => [name, t.boolean({ required: false })])) as Record<
    (typeof SETTABLE_HOOK_EVENTS)[number],
    ReturnType<typeof t.boolean>
  >),
  push_events_branch_filter: t.string({ required: false }),
  enable_ssl_verification: t.boolean({ required: false }),
  token: t.string({ required: false }),
  custom_webhook_template: t.string({ required: false }),
  branch_filter_strategy: t.field({ type: BranchFilterStrategyEnum, required: false }),
  url_variables: t.field({ type: [HookKeyValueInput], required: false }),
  custom_headers: t.field({ type: [HookKeyValueInput], required: false }),
}));

const settingArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  hook_id: t.int({ required: true }),
  key: t.string({ required: true }),
}));

builder.queryFields((t) => ({
  groupHooks: t.field({
    extensions: { access: "authenticated" },
    type: [GroupHookType],
    args: { id: t.arg.id({ required: true }), ...pageArgs },
    resolve: async (_r, args, ctx) => rowsOf(ctx, await listGroupHooks(ctx, String(args.id), args)),
  }),
  groupHook: t.field({
    extensions: { access: "authenticated" },
    type: GroupHookType,
    args: hookArgs,
    resolve: (_r, args, ctx) => getGroupHook(ctx, String(args.id), args.hook_id),
  }),
}));

builder.mutationFields((t) => ({
  createGroupHook: t.field({
    extensions: { access: "authenticated" },
    type: GroupHookType,
    args: { id: t.arg.id({ required: true }), url: t.arg.string({ required: true }), ...hookPropertyArgs },
    resolve: (_r, { id, ...input }, ctx) => createGroupHook(ctx, String(id), input),
  }),
  updateGroupHook: t.field({
    extensions: { access: "authenticated" },
    type: GroupHookType,
    args: {
      ...hookArgs,
      url: t.arg.string({ required: true }),
      ...hookPropertyArgs,
      service_access_tokens_expiration_enforced: t.arg.boolean({ required: false }),
    },
    resolve: (_r, { id, hook_id, ...input }, ctx) => updateGroupHook(ctx, String(id), hook_id, input),
  }),
  /** DELETE honours If-Unmodified-Since (412 when the hook changed after it). */
  deleteGroupHook: t.boolean({
    extensions: { access: "authenticated" },
    args: hookArgs,
    resolve: (_r, args, ctx) => deleteGroupHook(ctx, String(args.id), args.hook_id, ctx.request.headers.get("if-unmodified-since")),
  }),
  setGroupHookUrlVariable: t.boolean({
    extensions: { access: "authenticated" },
    args: { ...settingArgs, value: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => setHookSetting(ctx, String(a.id), a.hook_id, "url_variables", a.key, a.value),
  }),
  deleteGroupHookUrlVariable: t.boolean({
    extensions: { access: "authenticated" },
    args: settingArgs,
    resolve: (_r, a, ctx) => deleteHookSetting(ctx, String(a.id), a.hook_id, "url_variables", a.key),
  }),
  setGroupHookCustomHeader: t.boolean({
    extensions: { access: "authenticated" },
    args: { ...settingArgs, value: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => setHookSetting(ctx, String(a.id), a.hook_id, "custom_headers", a.key, a.value),
  }),
  deleteGroupHookCustomHeader: t.boolean({
    extensions: { access: "authenticated" },
    args: settingArgs,
    resolve: (_r, a, ctx) => deleteHookSetting(ctx, String(a.id), a.hook_id, "custom_headers", a.key),
  }),
}));
