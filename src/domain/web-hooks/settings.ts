// A hook's URL variables and custom headers, one key at a time (lib/api/hooks/url_variables.rb
// and custom_headers.rb): PUT sets a value, DELETE removes a key; both save the whole hook, so the
// hook's rules apply (a URL variable whose value changes the URL drops the other stored secrets).
import { notFound } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import type { WebHook } from "../../generated/prisma/client.js";
import type { OwnedHook } from "./owners.js";
import { stateOf } from "./rows.js";
import { saveHook, unprocessable } from "./writes.js";
import { applyEdit, type HookState } from "./rules.js";

export type HookSetting = "url_variables" | "custom_headers";

const TEXTS = {
  url_variables: { notFound: "URL variable", unset: "Could not unset variable" },
  custom_headers: { notFound: "Custom header", unset: "Could not unset custom header" },
} as const;

const mapOf = (state: HookState, setting: HookSetting) => (setting === "url_variables" ? state.urlVariables : state.customHeaders);

/** Sets one value of a found hook; the hook as saved. */
export function setHookSetting(ctx: DomainContext, found: OwnedHook, setting: HookSetting, key: string, value: string): Promise<WebHook> {
  return saveHook(ctx, found, (current) => applyEdit(current, { [setting]: [{ key, value }] }), () => unprocessable("Illegal key or value"));
}

/** Removes one key of a found hook (404 when it has no such key); the hook as saved. */
export async function deleteHookSetting(ctx: DomainContext, found: OwnedHook, setting: HookSetting, key: string): Promise<WebHook> {
  if (!Object.hasOwn(mapOf(stateOf(ctx, found.hook), setting), key)) throw notFound(TEXTS[setting].notFound);
  return saveHook(ctx, found, (current) => withoutKey(current, setting, key), () => unprocessable(TEXTS[setting].unset));
}

function withoutKey(current: HookState, setting: HookSetting, key: string): HookState {
  const map = { ...mapOf(current, setting) };
  delete map[key];
  return setting === "url_variables" ? { ...current, urlVariables: map } : { ...current, customHeaders: map };
}
