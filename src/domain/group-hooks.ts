// Group webhooks (GitLab's GroupHook, ee/lib/api/group_hooks.rb + lib/api/helpers/web_hooks_helpers.rb):
// list, read, create, edit, delete. Administrators and group Owners only. The url, token, URL
// variables and custom headers are stored encrypted (encryption.ts); the entity shows the url and
// the variable and header keys, never the token or a value.
import { assertUnmodifiedSince } from "./preconditions.js";
import { randomUUID } from "node:crypto";
import type { GroupHook, Namespace } from "../generated/prisma/client.js";
import { AppError, recordNotFound } from "../errors.js";
import { AccessLevel, findGroup, requireAuthenticated, requireLevel } from "./access.js";
import type { DomainContext } from "./context.js";
import {
  applyEdit, EMPTY_HOOK, fullMessagesSentence, validateHook, type BranchFilterStrategy, type HookEdit, type HookErrors,
  type HookState,
} from "./group-hooks-validation.js";
import { paginate, type Page, type PageArgs } from "./pagination.js";

/** Event switches of the entity, in GitLab's order (Hook, then GroupHook). */
export const HOOK_EVENTS = [
  "push_events", "tag_push_events", "merge_requests_events", "repository_update_events", "issues_events",
  "confidential_issues_events", "note_events", "confidential_note_events", "pipeline_events", "wiki_page_events",
  "job_events", "deployment_events", "feature_flag_events", "releases_events", "milestone_events", "subgroup_events",
  "emoji_events", "resource_access_token_events", "member_events", "vulnerability_events", "project_events",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The switches a group hook request may set (repository_update_events belongs to project hooks). */
export const SETTABLE_HOOK_EVENTS = HOOK_EVENTS.filter((e) => e !== "repository_update_events");

type EventColumn = { [K in keyof GroupHook]: GroupHook[K] extends boolean ? K : never }[keyof GroupHook];
/** `push_events` -> the GroupHook column `pushEvents`. */
export const hookEventColumn = (event: HookEvent) => event.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase()) as EventColumn;

/** GitLab's plan limit `group_hooks` (default 50). */
export const MAX_GROUP_HOOKS = 50;

export interface GroupHookEntity {
  id: number;
  group_id: number;
  url: string;
  name: string | null;
  description: string | null;
  created_at: Date;
  events: Record<HookEvent, boolean>;
  enable_ssl_verification: boolean;
  alert_status: "executable" | "temporarily_disabled" | "disabled";
  disabled_until: Date | null;
  url_variables: { key: string }[];
  push_events_branch_filter: string | null;
  branch_filter_strategy: string;
  custom_webhook_template: string | null;
  custom_headers: { key: string }[];
}

export type GroupHookInput = HookEdit & Partial<Record<HookEvent, boolean | null>> & {
  name?: string | null;
  description?: string | null;
  enable_ssl_verification?: boolean | null;
  service_access_tokens_expiration_enforced?: boolean | null;
};

/** Every route: 401 anonymous, 404 invisible group, 403 below Owner (admins pass). */
export async function hookGroup(ctx: DomainContext, groupId: string): Promise<Namespace> {
  requireAuthenticated(ctx);
  const { group, level } = await findGroup(ctx, groupId);
  requireLevel(ctx, level, AccessLevel.owner);
  return group;
}

export async function findHookRow(ctx: DomainContext, group: Namespace, hookId: number): Promise<GroupHook> {
  const row = await ctx.db.groupHook.findFirst({ where: { id: hookId, groupId: group.id } });
  if (!row) throw recordNotFound();
  return row;
}

export async function listGroupHooks(ctx: DomainContext, groupId: string, args: PageArgs): Promise<Page<GroupHookEntity>> {
  const group = await hookGroup(ctx, groupId);
  const where = { groupId: group.id };
  const page = await paginate(
    args,
    (cap) => ctx.db.groupHook.count({ where, take: cap }),
    (skip, take) => ctx.db.groupHook.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
  return { ...page, rows: page.rows.map((row) => toEntity(ctx, row)) };
}

export async function getGroupHook(ctx: DomainContext, groupId: string, hookId: number): Promise<GroupHookEntity> {
  const group = await hookGroup(ctx, groupId);
  return toEntity(ctx, await findHookRow(ctx, group, hookId));
}

export async function createGroupHook(ctx: DomainContext, groupId: string, input: GroupHookInput & { url: string }): Promise<GroupHookEntity> {
  const group = await hookGroup(ctx, groupId);
  const state = applyEdit(EMPTY_HOOK, input);
  const errors = await validateHook(state, ctx.urlGuard);
  if (!Object.keys(errors).length && (await ctx.db.groupHook.count({ where: { groupId: group.id } })) >= MAX_GROUP_HOOKS) {
    errors.base = [`Maximum number of group hooks (${MAX_GROUP_HOOKS}) exceeded`];
  }
  if (Object.keys(errors).length) throw createFailed(errors);
  const row = await ctx.db.groupHook.create({
    data: { uuid: randomUUID(), groupId: group.id, ...secretColumns(ctx, state), ...plainColumns(state, input) },
  });
  return toEntity(ctx, row);
}

export async function updateGroupHook(ctx: DomainContext, groupId: string, hookId: number, input: GroupHookInput & { url: string }) {
  const group = await hookGroup(ctx, groupId);
  const row = await saveHook(ctx, group, hookId, (current) => applyEdit(current, input), updateFailed, input);
  return toEntity(ctx, row);
}

/** The spec's idempotent DELETE: a hook that is not (or no longer) there answers 204 too. */
export async function deleteGroupHook(ctx: DomainContext, groupId: string, hookId: number, unmodifiedSince?: string | null): Promise<true> {
  const group = await hookGroup(ctx, groupId);
  const row = await ctx.db.groupHook.findFirst({ where: { id: hookId, groupId: group.id }, select: { updatedAt: true } });
  if (!row) return true;
  assertUnmodifiedSince(row.updatedAt, unmodifiedSince);
  await ctx.db.groupHook.deleteMany({ where: { id: hookId, groupId: group.id } });
  return true;
}

const MAX_SAVE_ATTEMPTS = 3;

/**
 * Read, change, validate and write one hook. The write only applies when nobody saved the hook in
 * between (lockVersion), else it starts over; the validation (DNS) stays outside any transaction.
 */
export async function saveHook(
  ctx: DomainContext,
  group: Namespace,
  hookId: number,
  change: (current: HookState) => HookState,
  failed: (errors: HookErrors) => AppError,
  input: GroupHookInput = {},
): Promise<GroupHook> {
  for (let attempt = 1; ; attempt++) {
    const row = await findHookRow(ctx, group, hookId);
    const next = change(stateOf(ctx, row));
    const errors = await validateHook(next, ctx.urlGuard);
    if (Object.keys(errors).length) throw failed(errors);
    const data = { ...secretColumns(ctx, next), ...plainColumns(next, input), lockVersion: { increment: 1 } };
    const { count } = await ctx.db.groupHook.updateMany({ where: { id: row.id, lockVersion: row.lockVersion }, data });
    if (count === 1) return ctx.db.groupHook.findUniqueOrThrow({ where: { id: row.id } });
    if (attempt >= MAX_SAVE_ATTEMPTS) throw new AppError(409, { message: "409 Conflict: Resource lock" });
  }
}

/** POST: WebHooks::CreateService's answers. */
function createFailed(errors: HookErrors): AppError {
  if (errors.url) return unprocessable("Invalid url given");
  if (errors.push_events_branch_filter) return unprocessable("Invalid branch filter given");
  if (errors.custom_headers) return unprocessable(`Custom headers ${errors.custom_headers.join(", ")}`);
  return unprocessable(fullMessagesSentence(errors));
}

/** PUT: web_hooks_helpers' save_hook answers. */
function updateFailed(errors: HookErrors): AppError {
  if (errors.url) return unprocessable("Invalid url given");
  if (errors.push_events_branch_filter) return unprocessable("Invalid branch filter given");
  if (errors.custom_headers) return unprocessable(`Custom headers validation failed: ${errors.custom_headers.join(", ")}`);
  return new AppError(422, { message: errors });
}

export const unprocessable = (text: string) => new AppError(422, { error: text });

const PURPOSE = { url: "group_hook.url", token: "group_hook.token", urlVariables: "group_hook.url_variables", customHeaders: "group_hook.custom_headers" };

/** The hook's secrets decrypted, with its branch filter settings: what the rules work on. */
export function stateOf(ctx: DomainContext, row: GroupHook): HookState {
  const open = (stored: string | null, purpose: string) => {
    if (stored === null) return null;
    try {
      return ctx.encryption.decrypt(stored, purpose);
    } catch {
      throw new Error(`group hook ${row.id}: ${purpose} cannot be decrypted (was the encryption key changed?)`);
    }
  };
  return {
    url: open(row.encryptedUrl, PURPOSE.url)!,
    token: open(row.encryptedToken, PURPOSE.token),
    urlVariables: JSON.parse(open(row.encryptedUrlVariables, PURPOSE.urlVariables) ?? "{}"),
    customHeaders: JSON.parse(open(row.encryptedCustomHeaders, PURPOSE.customHeaders) ?? "{}"),
    pushEventsBranchFilter: row.pushEventsBranchFilter,
    branchFilterStrategy: row.branchFilterStrategy as BranchFilterStrategy,
    customWebhookTemplate: row.customWebhookTemplate,
  };
}

function secretColumns(ctx: DomainContext, state: HookState) {
  const seal = (plain: string, purpose: string) => ctx.encryption.encrypt(plain, purpose);
  const sealMap = (map: Record<string, string>, purpose: string) => (Object.keys(map).length ? seal(JSON.stringify(map), purpose) : null);
  return {
    encryptedUrl: seal(state.url, PURPOSE.url),
    encryptedToken: state.token === null ? null : seal(state.token, PURPOSE.token),
    encryptedUrlVariables: sealMap(state.urlVariables, PURPOSE.urlVariables),
    encryptedCustomHeaders: sealMap(state.customHeaders, PURPOSE.customHeaders),
  };
}

/** Columns stored as given: the rules' results plus the attributes present in the request. */
function plainColumns(state: HookState, input: GroupHookInput) {
  const events = Object.fromEntries(
    SETTABLE_HOOK_EVENTS.filter((event) => input[event] != null).map((event) => [hookEventColumn(event), input[event]]),
  );
  return {
    ...events,
    pushEventsBranchFilter: state.pushEventsBranchFilter,
    branchFilterStrategy: state.branchFilterStrategy,
    customWebhookTemplate: state.customWebhookTemplate,
    ...(input.name !== undefined && { name: input.name }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.enable_ssl_verification != null && { enableSslVerification: input.enable_ssl_verification }),
    ...(input.service_access_tokens_expiration_enforced != null && {
      serviceAccessTokensExpirationEnforced: input.service_access_tokens_expiration_enforced,
    }),
  };
}

/** GitLab's WebHooks::AutoDisabling states, from the columns delivery maintains. */
/** GitLab's WebHooks::AutoDisabling: temporarily disabled past 3 recent failures, for good past 39. */
export const TEMPORARILY_DISABLED_THRESHOLD = 3;
export const PERMANENTLY_DISABLED_THRESHOLD = 39;

export function alertStatus(row: Pick<GroupHook, "recentFailures" | "disabledUntil">, now: Date): GroupHookEntity["alert_status"] {
  if (row.recentFailures > PERMANENTLY_DISABLED_THRESHOLD) return "disabled";
  if (row.recentFailures > TEMPORARILY_DISABLED_THRESHOLD && row.disabledUntil && row.disabledUntil >= now) return "temporarily_disabled";
  return "executable";
}

export function toEntity(ctx: DomainContext, row: GroupHook): GroupHookEntity {
  const state = stateOf(ctx, row);
  const keys = (map: Record<string, string>) => Object.keys(map).map((key) => ({ key }));
  return {
    id: row.id,
    group_id: row.groupId,
    url: state.url,
    name: row.name,
    description: row.description,
    created_at: row.createdAt,
    events: Object.fromEntries(HOOK_EVENTS.map((event) => [event, row[hookEventColumn(event)]])) as Record<HookEvent, boolean>,
    enable_ssl_verification: row.enableSslVerification,
    alert_status: alertStatus(row, ctx.now()),
    disabled_until: row.disabledUntil,
    url_variables: keys(state.urlVariables),
    push_events_branch_filter: row.pushEventsBranchFilter,
    branch_filter_strategy: row.branchFilterStrategy,
    custom_webhook_template: row.customWebhookTemplate,
    custom_headers: keys(state.customHeaders),
  };
}
