// A WebHook row's secrets and failure state: the url, token, URL variables and custom headers
// sealed with encryption.ts (one purpose per attribute), and GitLab's auto-disabling states read
// from the columns delivery maintains.
import type { WebHook } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import type { BranchFilterStrategy, HookState } from "./rules.js";

// The purposes keep the names they had when only groups had hooks: rows sealed with them exist.
const PURPOSE = { url: "group_hook.url", token: "group_hook.token", urlVariables: "group_hook.url_variables", customHeaders: "group_hook.custom_headers" };

/** The hook's secrets decrypted, with its branch filter settings: what the rules work on. */
export function stateOf(ctx: Pick<DomainContext, "encryption">, row: WebHook): HookState {
  const open = (stored: string | null, purpose: string) => {
    if (stored === null) return null;
    try {
      return ctx.encryption.decrypt(stored, purpose);
    } catch {
      throw new Error(`hook ${row.id}: ${purpose} cannot be decrypted (was the encryption key changed?)`);
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

export function secretColumns(ctx: Pick<DomainContext, "encryption">, state: HookState) {
  const seal = (plain: string, purpose: string) => ctx.encryption.encrypt(plain, purpose);
  const sealMap = (map: Record<string, string>, purpose: string) => (Object.keys(map).length ? seal(JSON.stringify(map), purpose) : null);
  return {
    encryptedUrl: seal(state.url, PURPOSE.url),
    encryptedToken: state.token === null ? null : seal(state.token, PURPOSE.token),
    encryptedUrlVariables: sealMap(state.urlVariables, PURPOSE.urlVariables),
    encryptedCustomHeaders: sealMap(state.customHeaders, PURPOSE.customHeaders),
  };
}

/** GitLab's WebHooks::AutoDisabling: temporarily disabled past 3 recent failures, for good past 39. */
export const TEMPORARILY_DISABLED_THRESHOLD = 3;
export const PERMANENTLY_DISABLED_THRESHOLD = 39;

export type AlertStatus = "executable" | "temporarily_disabled" | "disabled";

export function alertStatus(row: Pick<WebHook, "recentFailures" | "disabledUntil">, now: Date): AlertStatus {
  if (row.recentFailures > PERMANENTLY_DISABLED_THRESHOLD) return "disabled";
  if (row.recentFailures > TEMPORARILY_DISABLED_THRESHOLD && row.disabledUntil && row.disabledUntil >= now) return "temporarily_disabled";
  return "executable";
}
