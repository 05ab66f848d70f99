// A user's status (GitLab's UserStatus and Users::SetStatusService): an emoji, a message of at most
// 100 characters and an availability, optionally cleared after a chosen time. A status whose
// clearStatusAt has passed is not shown (GitLab's cron job deletes it a little later; readers here
// skip it and the next write replaces it).
import DataLoader from "dataloader";
import type { User, UserStatus } from "../../generated/prisma/client.js";
import { forbidden, paramError, validationError } from "../../errors.js";
import { canonicalEmojiName, emojiGlyph } from "../shared/emoji-names.js";
import type { DomainContext } from "../shared/context.js";
import type { LoaderFactory } from "../shared/loaders.js";

export const DEFAULT_STATUS_EMOJI = "speech_balloon";
export const STATUS_AVAILABILITIES = ["not_set", "busy"] as const;
export const STATUS_MESSAGE_MAX = 100;

/** GitLab's CLEAR_STATUS_QUICK_OPTIONS: the choices of clear_status_after, in milliseconds. */
const CLEAR_STATUS_AFTER: Record<string, number> = {
  "30_minutes": 30 * 60_000,
  "3_hours": 3 * 3_600_000,
  "8_hours": 8 * 3_600_000,
  "1_day": 86_400_000,
  "3_days": 3 * 86_400_000,
  "7_days": 7 * 86_400_000,
  "30_days": 30 * 86_400_000,
};
export const CLEAR_STATUS_AFTER_CHOICES = Object.keys(CLEAR_STATUS_AFTER);

export interface UserStatusInput {
  emoji?: string | null;
  message?: string | null;
  availability?: string | null;
  clear_status_after?: string | null;
}

/**
 * "replace": what is not given is cleared (PUT, the graph); "merge": only what is given is written
 * (PATCH). Either way GitLab's service resets a blank emoji to the default and a missing
 * availability to not_set.
 */
export type StatusWriteMode = "replace" | "merge";

/** The value checks Grape runs before the endpoint (400 {"error": ...}). */
export function checkUserStatusInput(input: UserStatusInput): void {
  if (input.clear_status_after != null && !(input.clear_status_after in CLEAR_STATUS_AFTER)) {
    throw paramError("clear_status_after does not have a valid value");
  }
}

/** Users' current statuses by user id (expired ones are null), one query per page of users. */
export const userStatusLoader: LoaderFactory<DataLoader<number, UserStatus | null>> = (services) =>
  new DataLoader(async (ids) => {
    const rows = await services.db.userStatus.findMany({ where: { userId: { in: [...ids] } } });
    const now = services.now();
    const byUser = new Map(rows.filter((row) => !isExpired(row, now)).map((row) => [row.userId, row]));
    return ids.map((id) => byUser.get(id) ?? null);
  });

const isExpired = (status: UserStatus, now: Date) => status.clearStatusAt !== null && status.clearStatusAt <= now;

/** The status the user shows now, or null (none, or past its clearStatusAt). */
export function statusOfUser(ctx: DomainContext, user: Pick<User, "id">): Promise<UserStatus | null> {
  return ctx.loaders.get(userStatusLoader).load(user.id);
}

/** GitLab's update_user_status ability: the user themselves, and administrators. */
export function canUpdateUserStatus(ctx: DomainContext, user: Pick<User, "id">): boolean {
  return !!ctx.actor && (ctx.actor.user.isAdmin || ctx.actor.user.id === user.id);
}

/**
 * Users::SetStatusService: no emoji, no message and no availability other than not_set removes the
 * status (answers null); anything else writes it, the emoji defaulting to speech_balloon.
 */
export async function setUserStatus(ctx: DomainContext, user: User, input: UserStatusInput, mode: StatusWriteMode): Promise<UserStatus | null> {
  if (!canUpdateUserStatus(ctx, user)) throw forbidden();
  checkUserStatusInput(input);
  const availability = STATUS_AVAILABILITIES.find((value) => value === input.availability) ?? "not_set";
  if (!input.emoji && !input.message && availability === "not_set") {
    await ctx.db.userStatus.deleteMany({ where: { userId: user.id } });
    return null;
  }
  const emoji = input.emoji || DEFAULT_STATUS_EMOJI;
  const errors: Record<string, string[]> = {};
  if (!canonicalEmojiName(emoji)) errors.emoji = ["is not a valid emoji name"];
  if (input.message && [...input.message].length > STATUS_MESSAGE_MAX) errors.message = [`is too long (maximum is ${STATUS_MESSAGE_MAX} characters)`];
  if (Object.keys(errors).length) throw validationError(errors);
  const written = {
    emoji,
    availability,
    ...(mode === "replace" || input.message !== undefined ? { message: input.message ?? null } : {}),
    ...(mode === "replace" || input.clear_status_after !== undefined ? { clearStatusAt: clearStatusAt(ctx, input.clear_status_after) } : {}),
  };
  // a merge onto an expired status starts from nothing, as GitLab's cron job would have removed it
  const current = mode === "merge" ? await statusOfUser(ctx, user) : null;
  const fresh = { message: null, clearStatusAt: null, ...written };
  return ctx.db.userStatus.upsert({
    where: { userId: user.id },
    create: { userId: user.id, ...fresh },
    update: current ? written : fresh,
  });
}

function clearStatusAt(ctx: DomainContext, after: string | null | undefined): Date | null {
  const span = after == null ? undefined : CLEAR_STATUS_AFTER[after];
  return span === undefined ? null : new Date(ctx.now().getTime() + span);
}

/**
 * The message as GitLab's emoji pipeline renders it: HTML escaped, `:name:` of a known emoji as a
 * `<gl-emoji>` element; "" without a status or a message, as GitLab's markdown_field.
 */
export function statusMessageHtml(status: Pick<UserStatus, "message"> | null): string {
  if (!status?.message) return "";
  return escapeHtml(status.message).replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => {
    const glyph = emojiGlyph(name);
    return glyph ? `<gl-emoji title="${escapeHtml(glyph.title)}" data-name="${glyph.name}">${glyph.char}</gl-emoji>` : whole;
  });
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
