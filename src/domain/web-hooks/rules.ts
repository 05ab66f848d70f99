// Webhook rules without I/O (apart from the URL guard): how an edit changes a hook (merging URL
// variables and custom headers, resetting the token, the variables and the headers when the URL
// changes), and the model validations with GitLab's attribute messages.
import { RE2JS } from "re2js";
import type { UrlGuard } from "../../net/url-guard.js";

export const BRANCH_FILTER_STRATEGIES = ["wildcard", "regex", "all_branches"] as const;
export type BranchFilterStrategy = (typeof BRANCH_FILTER_STRATEGIES)[number];

/** What a hook holds, secrets in plain text (only ever in memory). */
export interface HookState {
  url: string;
  token: string | null;
  urlVariables: Record<string, string>;
  customHeaders: Record<string, string>;
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: BranchFilterStrategy;
  customWebhookTemplate: string | null;
}

/** An entry without a value is what GET shows (`{"key": ...}`): resent as is, it changes nothing. */
export interface KeyValue {
  key: string;
  value?: string | null;
}

/** The part of a create or edit request that the rules below look at. */
export interface HookEdit {
  url?: string | null;
  token?: string | null;
  url_variables?: readonly KeyValue[] | null;
  custom_headers?: readonly KeyValue[] | null;
  push_events_branch_filter?: string | null;
  branch_filter_strategy?: BranchFilterStrategy | null;
  custom_webhook_template?: string | null;
}

export const EMPTY_HOOK: HookState = {
  url: "", token: null, urlVariables: {}, customHeaders: {}, pushEventsBranchFilter: null,
  branchFilterStrategy: "wildcard", customWebhookTemplate: null,
};

const entriesOf = (list: readonly KeyValue[] | null | undefined): Record<string, string> =>
  Object.fromEntries((list ?? []).flatMap(({ key, value }) => (value == null ? [] : [[key, value]])));

/**
 * The hook after an edit (GitLab's update_hook_params plus the model's before_validation hooks):
 * URL variables and custom headers sent are merged into the stored ones (entries without a value,
 * as GET shows them and python-gitlab's save() resends them, are no-ops). When the url VALUE or the
 * URL after interpolation changes, the stored secrets must not follow the hook to another target:
 * the token goes unless a token comes in the same request, and of the variables and headers only
 * those sent in this same request are kept.
 */
export function applyEdit(current: HookState, edit: HookEdit): HookState {
  const sentVariables = entriesOf(edit.url_variables);
  const sentHeaders = entriesOf(edit.custom_headers);
  const url = edit.url ?? current.url;
  let urlVariables = { ...current.urlVariables, ...sentVariables };
  let customHeaders = { ...current.customHeaders, ...sentHeaders };
  const before = interpolate(current.url, current.urlVariables);
  const after = interpolate(url, urlVariables);
  const targetChanged = before === null || after === null || before !== after;
  if (targetChanged) {
    urlVariables = sentVariables;
    customHeaders = sentHeaders;
  }
  const token = edit.token != null ? edit.token || null : url !== current.url || targetChanged ? null : current.token;
  const branchFilterStrategy = edit.branch_filter_strategy ?? current.branchFilterStrategy;
  let pushEventsBranchFilter = edit.push_events_branch_filter !== undefined ? edit.push_events_branch_filter : current.pushEventsBranchFilter;
  if (branchFilterStrategy === "all_branches") pushEventsBranchFilter = null;
  else if (branchFilterStrategy === "wildcard" && pushEventsBranchFilter != null) pushEventsBranchFilter = squish(pushEventsBranchFilter);
  const customWebhookTemplate = edit.custom_webhook_template !== undefined ? edit.custom_webhook_template : current.customWebhookTemplate;
  return { url, token, urlVariables, customHeaders, pushEventsBranchFilter, branchFilterStrategy, customWebhookTemplate };
}

/** Ruby's String#squish: whitespace runs become one space, ends trimmed. */
const squish = (value: string) => value.replace(/\s+/g, " ").trim();

/** `{name}` placeholders in a hook URL (GitLab's VARIABLE_REFERENCE_RE). */
const PLACEHOLDER = /\{([A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*)\}/g;

export const placeholdersOf = (url: string) => [...url.matchAll(PLACEHOLDER)].map((m) => m[1]!);

/** The URL with its placeholders replaced by the variables' values; null when one is missing. */
export function interpolate(url: string, variables: Record<string, string>): string | null {
  let missing = false;
  const result = url.replace(PLACEHOLDER, (_match, name: string) => {
    if (Object.hasOwn(variables, name)) return variables[name]!;
    missing = true;
    return "";
  });
  return missing ? null : result;
}

// URL variable and custom header maps (GitLab's JSON schemas web_hooks_url_variables.json and
// web_hooks_custom_headers.json), plus a rule of ours: a custom header never replaces a header
// that delivery sets itself.
export const MAX_ENTRIES = 20;
const VARIABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_KEY = /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/;
const RESERVED_HEADERS = new Set([
  "content-type", "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "upgrade",
  "te", "trailer", "expect", "host", "user-agent", "idempotency-key",
]);
const RESERVED_HEADER_PREFIXES = ["x-service-", "x-gitlab-"];

export const isReservedHeader = (key: string) => {
  const lower = key.toLowerCase();
  return RESERVED_HEADERS.has(lower) || RESERVED_HEADER_PREFIXES.some((prefix) => lower.startsWith(prefix));
};

export function urlVariablesValid(variables: Record<string, string>): boolean {
  const entries = Object.entries(variables);
  return entries.length <= MAX_ENTRIES && entries.every(([key, value]) => VARIABLE_KEY.test(key) && value.length >= 1 && value.length <= 100);
}

/** Problems with a custom header map, as messages on the `custom_headers` attribute. */
export function customHeaderProblems(headers: Record<string, string>): string[] {
  const entries = Object.entries(headers);
  const schemaValid = entries.length <= MAX_ENTRIES && entries.every(([key, value]) =>
    HEADER_KEY.test(key) && value.length >= 1 && value.length <= 2048 && !/[\r\n\0]/.test(value));
  const reserved = entries.map(([key]) => key).filter(isReservedHeader);
  return [
    ...(schemaValid ? [] : ["must be a valid json schema"]),
    ...reserved.map((key) => `cannot override the delivery header ${key}`),
  ];
}

/** `branch_filter_strategy` rules: wildcard filters are git branch names with `*`, regex ones RE2. */
function branchFilterProblems(filter: string | null, strategy: BranchFilterStrategy): string[] {
  if (filter == null || filter === "") return [];
  if (strategy === "regex") {
    try {
      RE2JS.compile(filter);
      return [];
    } catch (error) {
      return [`not valid RE2 syntax: ${(error as Error).message}`];
    }
  }
  if (strategy !== "wildcard") return [];
  return [
    ...(validBranchName(filter.replace(/\*/g, "x")) ? [] : ["is not a valid branch name"]),
    ...(filter.length > 4000 ? ["is longer than the allowed length of 4000 characters."] : []),
  ];
}

/** `git check-ref-format refs/heads/<name>` plus GitLab's GitRefValidator prefixes. */
export function validBranchName(name: string): boolean {
  if (!name || name === "HEAD" || name === "@" || name.startsWith("-")) return false;
  if (name.startsWith("refs/heads/") || name.startsWith("refs/tags/")) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

export type HookErrors = Record<string, string[]>;

/**
 * GitLab's model validations of a hook, in its order: url (present, no missing URL variables, a
 * valid public http(s) URL once interpolated), token, branch filter, url variables, custom headers,
 * custom template. Errors are keyed by attribute with Rails' messages.
 */
export async function validateHook(hook: HookState, guard: UrlGuard): Promise<HookErrors> {
  const errors: HookErrors = {};
  const add = (attribute: string, messages: string[]) => {
    if (messages.length) errors[attribute] = [...(errors[attribute] ?? []), ...messages];
  };
  add("url", await urlProblems(hook));
  add("token", hook.token?.includes("\n") ? ["is invalid"] : []);
  add("push_events_branch_filter", branchFilterProblems(hook.pushEventsBranchFilter, hook.branchFilterStrategy));
  add("url_variables", urlVariablesValid(hook.urlVariables) ? [] : ["must be a valid json schema"]);
  add("custom_headers", customHeaderProblems(hook.customHeaders));
  add("custom_webhook_template", (hook.customWebhookTemplate?.length ?? 0) > 4096 ? ["is too long (maximum is 4096 characters)"] : []);
  return errors;

  async function urlProblems({ url, urlVariables }: HookState): Promise<string[]> {
    if (!url.trim()) return ["can't be blank"];
    const missing = placeholdersOf(url).filter((name) => !Object.hasOwn(urlVariables, name));
    if (missing.length) return [`Invalid URL template. Missing keys: ${JSON.stringify([...new Set(missing)])}`];
    const target = interpolate(url, urlVariables)!;
    if (/[{}]/.test(url.replace(PLACEHOLDER, ""))) return ["is blocked: URL is invalid"];
    // a name that does not resolve yet passes; delivery refuses it then (UrlGuard.checkAtSave)
    const check = await guard.checkAtSave(target);
    return check.ok ? [] : [`is blocked: ${check.reason}`];
  }
}

const humanize = (attribute: string) => {
  const words = attribute.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Rails' `errors.full_messages.to_sentence`. */
export function fullMessagesSentence(errors: HookErrors): string {
  const messages = Object.entries(errors).flatMap(([attribute, list]) =>
    list.map((message) => (attribute === "base" ? message : `${humanize(attribute)} ${message}`)));
  if (messages.length <= 1) return messages.join("");
  if (messages.length === 2) return messages.join(" and ");
  return `${messages.slice(0, -1).join(", ")}, and ${messages.at(-1)}`;
}
