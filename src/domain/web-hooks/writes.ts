// Creating, editing and deleting webhooks of groups and projects. The url, token, URL variables
// and custom headers are stored encrypted (rows.ts).
import { randomUUID } from "node:crypto";
import { AppError } from "../../errors.js";
import type { WebHook } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import type { HookOwner, OwnedHook } from "./owners.js";
import { toEntity, type HookEntity } from "./presenter.js";
import { findOwnedHook } from "./queries.js";
import { secretColumns, stateOf } from "./rows.js";
import { applyEdit, EMPTY_HOOK, fullMessagesSentence, validateHook, type HookEdit, type HookErrors, type HookState } from "./rules.js";
import { generateSigningSecret, rotateSigningSecret, shownSecret, signingColumns } from "./signing.js";
import { hookEventColumn, type HookEvent } from "./switches.js";
import { publish } from "../shared/events.js";

export type HookInput = HookEdit & Partial<Record<HookEvent, boolean | null>> & {
  name?: string | null;
  description?: string | null;
  enable_ssl_verification?: boolean | null;
  service_access_tokens_expiration_enforced?: boolean | null;
  signing_enabled?: boolean | null;
};

/** A new hook of an owner whose hooks the caller may manage (owners.ts: resolveHookOwner, hookOwnerOf). */
export async function createHook(ctx: DomainContext, owner: HookOwner, input: HookInput & { url: string }): Promise<HookEntity> {
  const state = applyEdit(EMPTY_HOOK, input);
  const errors = await validateHook(state, ctx.urlGuard);
  if (!Object.keys(errors).length && (await ctx.db.webHook.count({ where: owner.where })) >= owner.maxHooks) {
    errors.base = [`Maximum number of ${owner.kind} hooks (${owner.maxHooks}) exceeded`]; // GitLab's Limitable
  }
  if (Object.keys(errors).length) throw createFailed(errors);
  const fresh = generateSigningSecret();
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.webHook.create({
      data: {
        uuid: randomUUID(), ...owner.where, ...secretColumns(ctx, state), ...plainColumns(owner, state, input),
        ...signingColumns(ctx, null, input.signing_enabled, fresh),
      },
    });
    await publish(tx, ctx, "web_hook", { action: "create", hook: created, actorId: ctx.actor!.user.id });
    return created;
  });
  return toEntity(ctx, row, shownSecret(ctx, row, fresh));
}

/** An edit without a url keeps the hook's (REST always sends one). */
export async function updateHook(ctx: DomainContext, found: OwnedHook, input: HookInput): Promise<HookEntity> {
  const fresh = generateSigningSecret();
  const row = await saveHook(ctx, found, (current) => applyEdit(current, input), updateFailed, input, fresh);
  return toEntity(ctx, row, shownSecret(ctx, row, fresh));
}

/** POST .../hooks/:hook_id/signing_secret: the hook with its new signing secret, shown this once. */
export async function rotateHookSigningSecret(ctx: DomainContext, found: OwnedHook): Promise<HookEntity> {
  const { row, secret } = await rotateSigningSecret(ctx, found);
  return toEntity(ctx, row, secret);
}

/**
 * The spec's idempotent DELETE of the hook findHookToDelete found: a hook that is not (or no
 * longer) there (null) answers 204 too.
 */
export async function deleteHook(ctx: DomainContext, found: OwnedHook | null, unmodifiedSince?: string | null): Promise<true> {
  if (!found) return true;
  assertUnmodifiedSince(found.hook.updatedAt, unmodifiedSince);
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.webHook.deleteMany({ where: { id: found.hook.id, ...found.owner.where } });
    if (count) await publish(tx, ctx, "web_hook", { action: "destroy", hook: found.hook, actorId: ctx.actor!.user.id });
  });
  return true;
}

const MAX_SAVE_ATTEMPTS = 3;

/**
 * Change, validate and write a found hook. The write only applies when nobody saved the hook since
 * it was read (lockVersion), else it reads it again and starts over; the validation (DNS) stays
 * outside any transaction.
 */
export async function saveHook(
  ctx: DomainContext,
  { hook, owner }: OwnedHook,
  change: (current: HookState) => HookState,
  failed: (errors: HookErrors) => AppError,
  input: HookInput = {},
  /** the signing secret `signing_enabled: true` turns signing on with */
  freshSigningSecret = "",
): Promise<WebHook> {
  let row = hook;
  for (let attempt = 1; ; attempt++) {
    const next = change(stateOf(ctx, row));
    const errors = await validateHook(next, ctx.urlGuard);
    if (Object.keys(errors).length) throw failed(errors);
    const data = {
      ...secretColumns(ctx, next), ...plainColumns(owner, next, input), ...signingColumns(ctx, row, input.signing_enabled, freshSigningSecret),
      lockVersion: { increment: 1 },
    };
    const { count } = await ctx.db.webHook.updateMany({ where: { id: row.id, lockVersion: row.lockVersion }, data });
    if (count === 1) return ctx.db.webHook.findUniqueOrThrow({ where: { id: row.id } });
    if (attempt >= MAX_SAVE_ATTEMPTS) throw new AppError(409, { message: "409 Conflict: Resource lock" });
    row = (await findOwnedHook(ctx, owner, hook.id)).hook;
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

/** Columns stored as given: the rules' results plus the attributes present in the request. */
function plainColumns(owner: HookOwner, state: HookState, input: HookInput) {
  const events = Object.fromEntries(
    owner.settableEvents.filter((event) => input[event] != null).map((event) => [hookEventColumn(event), input[event]]),
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
