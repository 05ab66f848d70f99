// Signed deliveries (a Forgeline extension, off unless asked for): a hook may carry a signing
// secret in the Standard Webhooks form (`whsec_` + base64 of 32 random bytes), generated here,
// shown once (in the answer that created it) and sealed like the hook's other secrets. Rotating
// keeps the previous secret signing beside the new one for WEBHOOK_SIGNING_GRACE_HOURS, so that
// receivers can switch without rejecting deliveries in between.
import { randomBytes } from "node:crypto";
import type { WebHook } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import type { OwnedHook } from "./owners.js";

const PURPOSE = { current: "web_hook.signing_secret", previous: "web_hook.previous_signing_secret" };
const SECRET_PREFIX = "whsec_";

export type SigningColumns = Pick<WebHook, "encryptedSigningSecret" | "encryptedPreviousSigningSecret" | "previousSigningSecretExpiresAt">;

export const generateSigningSecret = () => SECRET_PREFIX + randomBytes(32).toString("base64");

const seal = (ctx: Pick<DomainContext, "encryption">, secret: string) => ctx.encryption.encrypt(secret, PURPOSE.current);

const NO_SIGNING: SigningColumns = { encryptedSigningSecret: null, encryptedPreviousSigningSecret: null, previousSigningSecretExpiresAt: null };

/**
 * What `signing_enabled` changes on a hook saved from `row` (null: a new hook): true turns signing
 * on with `fresh` when it is off (on already: nothing), false turns it off and forgets the secrets.
 */
export function signingColumns(
  ctx: Pick<DomainContext, "encryption">, row: SigningColumns | null, enabled: boolean | null | undefined, fresh: string,
): Partial<SigningColumns> {
  if (enabled === false) return NO_SIGNING;
  if (enabled === true && !row?.encryptedSigningSecret) return { ...NO_SIGNING, encryptedSigningSecret: seal(ctx, fresh) };
  return {};
}

/** The secret `row` signs with when it is `fresh` (the answer that set it shows it), else null. */
export function shownSecret(ctx: Pick<DomainContext, "encryption">, row: SigningColumns, fresh: string): string | null {
  return row.encryptedSigningSecret && open(ctx, row.encryptedSigningSecret, PURPOSE.current) === fresh ? fresh : null;
}

/**
 * POST .../hooks/:hook_id/signing_secret: a new secret (the first one turns signing on); the one
 * it replaces keeps signing until the grace period ends. Same access as editing the hook.
 */
export async function rotateSigningSecret(ctx: DomainContext, { hook: row }: OwnedHook): Promise<{ row: WebHook; secret: string }> {
  const secret = generateSigningSecret();
  const graceMs = ctx.config.webhookSigningGraceHours * 3_600_000;
  const keepPrevious = row.encryptedSigningSecret !== null && graceMs > 0;
  const updated = await ctx.db.webHook.update({
    where: { id: row.id },
    data: {
      encryptedSigningSecret: seal(ctx, secret),
      encryptedPreviousSigningSecret: keepPrevious
        ? ctx.encryption.encrypt(open(ctx, row.encryptedSigningSecret!, PURPOSE.current), PURPOSE.previous)
        : null,
      previousSigningSecretExpiresAt: keepPrevious ? new Date(ctx.now().getTime() + graceMs) : null,
      lockVersion: { increment: 1 },
    },
  });
  return { row: updated, secret };
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its grace period. */
export function signingSecretsOf(ctx: Pick<DomainContext, "encryption">, row: SigningColumns, now: Date): string[] {
  if (!row.encryptedSigningSecret) return [];
  const current = open(ctx, row.encryptedSigningSecret, PURPOSE.current);
  const previousValid = row.encryptedPreviousSigningSecret && row.previousSigningSecretExpiresAt && row.previousSigningSecretExpiresAt > now;
  return previousValid ? [current, open(ctx, row.encryptedPreviousSigningSecret!, PURPOSE.previous)] : [current];
}

function open(ctx: Pick<DomainContext, "encryption">, stored: string, purpose: string): string {
  try {
    return ctx.encryption.decrypt(stored, purpose);
  } catch {
    throw new Error(`${purpose} cannot be decrypted (was the encryption key changed?)`);
  }
}
