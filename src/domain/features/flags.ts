// Instance feature flags, as GitLab's Features API (Flipper) exposes them: a flag has a default from
// its definition, an administrator may override it (on or off) and remove the override again.
// Any name may be set, as in GitLab; names without a definition default to off.
import type { FeatureFlag } from "../../generated/prisma/client.js";
import { badRequest } from "../../errors.js";
import { requireAdmin } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";

/** GitLab's feature flag definition (config/feature_flags/<type>/<name>.yml), PARAMS in order. */
export interface FeatureDefinition {
  name: string;
  feature_issue_url: string | null;
  introduced_by_url: string | null;
  rollout_issue_url: string | null;
  milestone: string | null;
  log_state_changes: boolean | null;
  type: string;
  group: string | null;
  default_enabled: boolean;
}

const definition = (fields: Partial<FeatureDefinition> & Pick<FeatureDefinition, "name" | "type" | "default_enabled">): FeatureDefinition => ({
  feature_issue_url: null,
  introduced_by_url: null,
  rollout_issue_url: null,
  milestone: null,
  log_state_changes: null,
  group: null,
  ...fields,
});

/** The flags Forgeline's code reads, with GitLab's definitions. */
export const FEATURE_DEFINITIONS = {
  approval_group_rules: definition({
    name: "approval_group_rules",
    type: "wip",
    group: "group::source code",
    default_enabled: false,
  }),
  web_hook_event_resend_api_endpoint_rate_limit: definition({
    name: "web_hook_event_resend_api_endpoint_rate_limit",
    feature_issue_url: "https://gitlab.com/gitlab-org/gitlab/-/issues/372826",
    introduced_by_url: "https://gitlab.com/gitlab-org/gitlab/-/merge_requests/151130",
    milestone: "17.4",
    type: "ops",
    group: "group::import",
    default_enabled: true,
  }),
  web_hook_test_api_endpoint_rate_limit: definition({
    name: "web_hook_test_api_endpoint_rate_limit",
    introduced_by_url: "https://gitlab.com/gitlab-org/gitlab/-/merge_requests/150066",
    milestone: "17.0",
    type: "ops",
    group: "group::import and integrate",
    default_enabled: true,
  }),
} as const satisfies Record<string, FeatureDefinition>;

export type FeatureName = keyof typeof FEATURE_DEFINITIONS;

function definitionOf(name: string): FeatureDefinition | null {
  return Object.hasOwn(FEATURE_DEFINITIONS, name) ? FEATURE_DEFINITIONS[name as FeatureName] : null;
}

/** Whether a flag is on: the administrator's override if any, else the definition's default. */
export async function isFeatureEnabled(ctx: Pick<DomainContext, "db">, name: FeatureName): Promise<boolean> {
  const override = await ctx.db.featureFlag.findUnique({ where: { name } });
  return override ? override.enabled : FEATURE_DEFINITIONS[name].default_enabled;
}

/** GitLab's Feature entity. Only the boolean gate exists here (percentage gates are refused). */
export interface FeatureView {
  name: string;
  state: "on" | "off";
  gates: { key: "boolean"; value: boolean }[];
  definition: FeatureDefinition | null;
}

function featureView(flag: Pick<FeatureFlag, "name" | "enabled">): FeatureView {
  return {
    name: flag.name,
    state: flag.enabled ? "on" : "off",
    gates: [{ key: "boolean", value: flag.enabled }],
    definition: definitionOf(flag.name),
  };
}

/** GET /features: the persisted flags (overrides) only, as GitLab lists them. */
export async function listFeatures(ctx: DomainContext): Promise<FeatureView[]> {
  requireAdmin(ctx);
  const flags = await ctx.db.featureFlag.findMany({ orderBy: { name: "asc" } });
  return flags.map(featureView);
}

/** GET /features/definitions: every flag Forgeline knows, with its default. */
export function listFeatureDefinitions(ctx: DomainContext): FeatureDefinition[] {
  requireAdmin(ctx);
  return Object.values(FEATURE_DEFINITIONS);
}

/** POST /features/:name: creates or updates the override. */
export async function setFeature(ctx: DomainContext, name: string, value: unknown): Promise<FeatureView> {
  requireAdmin(ctx);
  const enabled = gateValue(name, value);
  const flag = await ctx.db.featureFlag.upsert({
    where: { name },
    create: { name, enabled },
    update: { enabled },
  });
  return featureView(flag);
}

/** DELETE /features/:name: drops the override (the default applies again); no error when absent. */
export async function deleteFeature(ctx: DomainContext, name: string): Promise<boolean> {
  requireAdmin(ctx);
  await ctx.db.featureFlag.deleteMany({ where: { name } });
  return true;
}

const ENABLE_VALUES = ["true", "100", "100.0"];
const DISABLE_VALUES = ["false", "0", "0.0"];

/**
 * GitLab's value rules (Admin::SetFeatureFlagService): "true"/"100" enable, "false"/"0" disable,
 * other numbers set a percentage-of-time gate (not supported here), anything else is refused.
 */
function gateValue(name: string, value: unknown): boolean {
  const text = typeof value === "boolean" || typeof value === "number" ? String(value) : value;
  if (typeof text === "string" && ENABLE_VALUES.includes(text)) return true;
  if (typeof text === "string" && DISABLE_VALUES.includes(text)) return false;
  if (typeof text === "string" && /^\d+(\.\d+)?$/.test(text)) {
    throw badRequest(`Percentage gates are not supported; set '${name}' to true or false`);
  }
  throw badRequest(`Cannot set '${name}' to ${JSON.stringify(text ?? null)}`);
}
