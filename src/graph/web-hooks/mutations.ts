// Webhook writes on projects and groups (GitLab's graph has none: the REST hook routes are the
// model): create, update, delete, a test delivery, resending a recorded delivery, and rotating the
// signing secret, over the domain functions REST /projects/:id/hooks and /groups/:id/hooks call
// (web-hooks/owners.ts says who may: project Maintainers, group Owners, administrators). The token and
// the URL variable and header values are write-only; a signing secret appears once, in the
// rotate payload.
import { GROUP_HOOK_EVENTS, PROJECT_HOOK_EVENTS } from "../../domain/web-hooks/owners.js";
import type { Context } from "../../context.js";
import { recordId } from "../../domain/shared/record-ids.js";
import type { HookEvent } from "../../domain/web-hooks/switches.js";
import { createHook, deleteHook, rotateHookSigningSecret, updateHook, type HookInput } from "../../domain/web-hooks/writes.js";
import { findHookById, findOwnedHook, hookEntity } from "../../domain/web-hooks/queries.js";
import { resolveHookOwner } from "../../domain/web-hooks/owners.js";
import { BRANCH_FILTER_STRATEGIES, type KeyValue } from "../../domain/web-hooks/rules.js";
import { resendHookEvent, testHook } from "../../domain/web-hooks/history.js";
import { TEST_TRIGGERS, type TestTrigger } from "../../domain/web-hooks/triggers.js";
import { builder } from "../shared/builder.js";
import { camel, GroupHookRef, HOOK_TYPENAMES, ProjectHookRef, type HookKind } from "./types.js";
import { decodeGid } from "../shared/ids.js";
import { groupPathOf, ownerPathIn, projectPathOf, recordIdOf, type OwnerPathField } from "../shared/mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../shared/payload-mutation.js";

const HookKeyValueInput = builder.inputType("HookKeyValueInput", {
  description: "A URL variable or custom header: merged into the stored ones; a new URL keeps only those sent with it.",
  fields: (t) => ({ key: t.string({ required: true }), value: t.string({ required: true }) }),
});

const BranchFilterStrategyEnum = builder.enumType("BranchFilterStrategy", { values: BRANCH_FILTER_STRATEGIES });

const HookTestTriggerEnum = builder.enumType("HookTestTrigger", { values: TEST_TRIGGERS });

interface KindInfo extends OwnerPathField {
  kind: HookKind;
  ref: typeof ProjectHookRef;
  /** the switches a write may set */
  events: readonly HookEvent[];
}

/** The fields of the create and update inputs (Pothos widens them: read back through this shape). */
interface HookFields {
  url?: string | null;
  name?: string | null;
  description?: string | null;
  token?: string | null;
  enableSslVerification?: boolean | null;
  pushEventsBranchFilter?: string | null;
  branchFilterStrategy?: (typeof BRANCH_FILTER_STRATEGIES)[number] | null;
  urlVariables?: KeyValue[] | null;
  customHeaders?: KeyValue[] | null;
  signingEnabled?: boolean | null;
  [switchName: string]: unknown;
}

/** The REST parameters (snake_case) of an input. */
function hookInputOf(fields: HookFields, events: readonly HookEvent[]): HookInput {
  return {
    ...Object.fromEntries(events.filter((event) => fields[camel(event)] != null).map((event) => [event, fields[camel(event)] as boolean])),
    url: fields.url,
    name: fields.name,
    description: fields.description,
    token: fields.token,
    enable_ssl_verification: fields.enableSslVerification,
    push_events_branch_filter: fields.pushEventsBranchFilter,
    branch_filter_strategy: fields.branchFilterStrategy,
    url_variables: fields.urlVariables,
    custom_headers: fields.customHeaders,
    signing_enabled: fields.signingEnabled,
  };
}

/** A delivery's id (gid://forgeline/WebHookLog/N); anything else names no delivery. */
const eventIdOf = (gid: string | number) => {
  const { typename, id } = decodeGid(String(gid));
  return typename === "WebHookLog" ? recordId(id) : -1;
};

/** The hook a ProjectHook or GroupHook global id names; an id of the other kind is not available. */
export const hookOf = (ctx: Context, kind: HookKind, gid: string | number) => findHookById(ctx, kind, recordIdOf(gid, HOOK_TYPENAMES[kind]));

function hookMutations(info: KindInfo) {
  const { kind, ref, events, pathKey } = info;
  const hook = { field: `${kind}Hook`, type: ref };

  const propertyFields = (t: PayloadInputFieldBuilder) => ({
    name: t.string(),
    description: t.string(),
    token: t.string({ description: "Sent as X-Gitlab-Token; write-only, never shown. A new URL drops it unless sent again." }),
    enableSslVerification: t.boolean(),
    pushEventsBranchFilter: t.string(),
    branchFilterStrategy: t.field({ type: BranchFilterStrategyEnum }),
    urlVariables: t.field({ type: [HookKeyValueInput], description: "Values are write-only." }),
    customHeaders: t.field({ type: [HookKeyValueInput], description: "Values are write-only." }),
    signingEnabled: t.boolean({ description: "True signs deliveries with a new secret (get it with the rotate mutation), false stops." }),
    ...Object.fromEntries(events.map((event) => [camel(event), t.boolean()])),
  });

  const idField = { description: `Global id of the ${HOOK_TYPENAMES[kind]}.` };

  payloadMutation(`${kind}HookCreate`, {
    inputFields: (t) => ({ [pathKey]: t.id({ required: true }), url: t.string({ required: true }), ...propertyFields(t) }),
    write: async (input, ctx) => {
      const fields = input as HookFields;
      const path = ownerPathIn(info, fields);
      const owner = await resolveHookOwner(ctx, kind === "group" ? { group: path } : { project: path });
      return createHook(ctx, owner, { ...hookInputOf(fields, events), url: String(fields.url) });
    },
    returns: hook,
  });

  payloadMutation(`${kind}HookUpdate`, {
    inputFields: (t) => ({ id: t.id({ required: true, ...idField }), url: t.string({ description: "Absent keeps the URL." }), ...propertyFields(t) }),
    write: async (input, ctx) => updateHook(ctx, await hookOf(ctx, kind, input.id as string), hookInputOf(input as HookFields, events)),
    returns: hook,
  });

  payloadMutation(`${kind}HookDelete`, {
    inputFields: (t) => ({ id: t.id({ required: true, ...idField }) }),
    write: async (input, ctx) => deleteHook(ctx, await hookOf(ctx, kind, input.id)),
  });

  payloadMutation(`${kind}HookTest`, {
    inputFields: (t) => ({
      id: t.id({ required: true, ...idField }),
      trigger: t.field({ type: HookTestTriggerEnum, required: true, description: "The sample event to send now (even to a disabled hook)." }),
    }),
    write: async (input, ctx) => {
      const found = await hookOf(ctx, kind, input.id);
      await testHook(ctx, found, input.trigger as TestTrigger);
      return hookEntity(ctx, await findOwnedHook(ctx, found.owner, found.hook.id)); // as the delivery left it
    },
    returns: hook,
  });

  payloadMutation(`${kind}HookEventResend`, {
    inputFields: (t) => ({
      id: t.id({ required: true, ...idField }),
      eventId: t.id({ required: true, description: "Global id of the delivery (HookEvent.id) to send again." }),
    }),
    write: async (input, ctx) => resendHookEvent(ctx, await hookOf(ctx, kind, input.id), eventIdOf(input.eventId)),
    extraFields: (t) => ({
      responseStatus: t.int({ nullable: true, description: "The receiver's HTTP status.", resolve: (p) => p.result?.response_status ?? null }),
    }),
  });

  payloadMutation(`${kind}HookRotateSigningSecret`, {
    inputFields: (t) => ({ id: t.id({ required: true, ...idField }) }),
    write: async (input, ctx) => rotateHookSigningSecret(ctx, await hookOf(ctx, kind, input.id)),
    returns: hook,
    extraFields: (t) => ({
      signingSecret: t.string({
        nullable: true,
        description: "The new whsec_ secret, shown only here; the previous one still signs for WEBHOOK_SIGNING_GRACE_HOURS.",
        resolve: (p) => p.result?.signing_secret ?? null,
      }),
    }),
  });
}

hookMutations({ kind: "project", ref: ProjectHookRef, events: PROJECT_HOOK_EVENTS, pathKey: "projectPath", pathOf: projectPathOf });
hookMutations({ kind: "group", ref: GroupHookRef, events: GROUP_HOOK_EVENTS, pathKey: "groupPath", pathOf: groupPathOf });
