// One execution of a hook (GitLab's WebHookService#execute): skip a disabled hook unless forced
// (tests are), build the request, send it, record the attempt in the history, and update the
// hook's auto-disabling state. Used by the worker, the resend endpoint and the test endpoint.
import { performance } from "node:perf_hooks";
import type { GroupHook } from "../generated/prisma/client.js";
import type { Services } from "../domain/context.js";
import { stateOf } from "../domain/group-hooks.js";
import { isExecutable, recordFailure, recordSuccess } from "./auto-disable.js";
import { sendOverNetwork, type Transport } from "./http.js";
import { recordAttempt } from "./log.js";
import { buildHeaders, renderTemplate, targetOf, TemplateError, type DeliveryIds } from "./request.js";

export interface Execution extends DeliveryIds {
  hook: GroupHook;
  data: unknown;
  /** send even when the hook is disabled (test deliveries) */
  force?: boolean;
  /** the data is a recorded request body: send it as it is (resend), no template */
  recorded?: boolean;
}

export type ExecutionResult =
  | { sent: false; message: "Hook disabled" }
  /** status null: no HTTP answer ("internal error"); message: the answer's body or the error */
  | { sent: true; status: number | null; message: string; logId: number };

/** GitLab's response category :ok (a 2xx or 3xx answer): the hook stays enabled, the delivery is done. */
export const isSuccessStatus = (status: number | null) => status !== null && status >= 200 && status < 400;

export async function executeHook(services: Services, execution: Execution, transport: Transport = sendOverNetwork): Promise<ExecutionResult> {
  const { hook } = execution;
  if (!execution.force && !isExecutable(hook, services.now())) return { sent: false, message: "Hook disabled" };
  const state = stateOf({ ...services, actor: null }, hook);
  const target = targetOf(state);
  const headers = buildHeaders(services.config, hook, state, execution);
  const started = performance.now();
  const createdAt = services.now();
  let body: unknown = {};
  let outcome: Awaited<ReturnType<Transport>>;
  try {
    body = execution.recorded || !state.customWebhookTemplate ? execution.data : renderTemplate(state.customWebhookTemplate, execution.data);
    const sent = target.authorization ? { ...headers.sent, Authorization: target.authorization } : headers.sent;
    outcome = await transport(
      { url: target.url, headers: sent, body: JSON.stringify(body), verifyTls: hook.enableSslVerification, timeoutMs: services.config.webhookTimeoutSeconds * 1000 },
      services.urlGuard,
    );
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    outcome = { ok: false, error: error.message };
  }
  const executionDuration = (performance.now() - started) / 1000;
  const logId = await recordAttempt(services.db, {
    hookId: hook.id, trigger: execution.trigger, url: target.recorded, interpolatedUrl: target.interpolated,
    requestHeaders: headers.recorded, requestData: body,
    response: outcome.ok ? outcome : null, internalErrorMessage: outcome.ok ? null : outcome.error,
    executionDuration, idempotencyKey: execution.idempotencyKey, createdAt,
  });
  if (outcome.ok && isSuccessStatus(outcome.status)) await recordSuccess(services.db, hook.id);
  else await recordFailure(services.db, hook.id, services.now);
  return outcome.ok
    ? { sent: true, status: outcome.status, message: outcome.body, logId }
    : { sent: true, status: null, message: outcome.error, logId };
}
