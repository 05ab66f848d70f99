// The hook entity: the columns GitLab shows, never the token, URL variables' values or custom
// header values (stored encrypted: rows.ts).
import type { WebHook } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { alertStatus, stateOf, type AlertStatus } from "./rows.js";
import { HOOK_EVENTS, hookEventColumn, type HookEvent } from "./switches.js";

export interface HookEntity {
  id: number;
  /** the owner's id: one of the two is set */
  group_id: number | null;
  project_id: number | null;
  url: string;
  name: string | null;
  description: string | null;
  created_at: Date;
  events: Record<HookEvent, boolean>;
  enable_ssl_verification: boolean;
  alert_status: AlertStatus;
  disabled_until: Date | null;
  url_variables: { key: string }[];
  push_events_branch_filter: string | null;
  branch_filter_strategy: string;
  custom_webhook_template: string | null;
  custom_headers: { key: string }[];
  /** Forgeline extension: deliveries carry Standard Webhooks signatures */
  signing_enabled: boolean;
  /** the signing secret, only in the answer that generated it */
  signing_secret: string | null;
}

export function toEntity(ctx: DomainContext, row: WebHook, signingSecret: string | null = null): HookEntity {
  const state = stateOf(ctx, row);
  const keys = (map: Record<string, string>) => Object.keys(map).map((key) => ({ key }));
  return {
    id: row.id,
    group_id: row.groupId,
    project_id: row.projectId,
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
    signing_enabled: row.encryptedSigningSecret !== null,
    signing_secret: signingSecret,
  };
}
