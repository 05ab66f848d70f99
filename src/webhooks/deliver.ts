// One execution of a hook (GitLab's WebHookService#execute): skip a disabled hook unless forced
// (tests are), build the request, send it, record the attempt in the history, and update the
// hook's auto-disabling state. Used by the worker, the resend endpoint and the test endpoint.
import { performance } from "node:perf_hooks";
import type { WebHook } from "../generated/prisma/client.js";
import type { Services } from "../domain/shared/context.js";
import type { Tx } from "../domain/shared/events.js";
import { stateOf } from "../domain/web-hooks/rows.js";
import { signingSecretsOf } from "../domain/web-hooks/signing.js";
import { isExecutable, recordFailure, recordSuccess } from "./auto-disable.js";
import { sendOverNetwork, type Transport } from "./http.js";
import { recordAttempt, type AttemptRecord } from "./log.js";
import { buildHeaders, renderTemplate, signatureHeaders, targetOf, TemplateError, type DeliveryIds } from "./request.js";

export interface Execution extends DeliveryIds {
  hook: WebHook;
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
  const sent = await sendHook(services, execution, transport);
  if (!sent) return { sent: false, message: "Hook disabled" };
  const logId = await recordAttempt(services.db, sent);
  await recordHookHealth(services.db, services.now, execution.hook, sent);
  return resultOf(sent, logId);
}

/**
 * Sends the request and returns what the history records of it (null: the hook is disabled and
 * the send not forced); writes nothing.
 */
export async function sendHook(services: Services, execution: Execution, transport: Transport = sendOverNetwork): Promise<AttemptRecord | null> {
  const { hook } = execution;
  if (!execution.force && !isExecutable(hook, services.now())) return null;
  const state = stateOf(services, hook);
  const target = targetOf(state);
  let headers = buildHeaders(services.config, hook, state, execution);
  const started = performance.now();
  const createdAt = services.now();
  let body: unknown = {};
  let outcome: Awaited<ReturnType<Transport>>;
  try {
    body = execution.recorded || !state.customWebhookTemplate ? execution.data : renderTemplate(state.customWebhookTemplate, execution.data);
    const json = JSON.stringify(body);
    // signed at send time: a resend carries a fresh timestamp
    const signed = signatureHeaders(signingSecretsOf(services, hook, createdAt), execution.idempotencyKey, createdAt, json);
    headers = buildHeaders(services.config, hook, state, execution, signed);
    const sent = target.authorization ? { ...headers.sent, Authorization: target.authorization } : headers.sent;
    outcome = await transport(
      { url: target.url, headers: sent, body: json, verifyTls: hook.enableSslVerification, timeoutMs: services.config.webhookTimeoutSeconds * 1000 },
      services.urlGuard,
    );
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    outcome = { ok: false, error: error.message };
  }
  return {
    hookId: hook.id, trigger: execution.trigger, url: target.recorded, interpolatedUrl: target.interpolated,
    requestHeaders: headers.recorded, requestData: body,
    response: outcome.ok ? outcome : null, internalErrorMessage: outcome.ok ? null : outcome.error,
    executionDuration: (performance.now() - started) / 1000, idempotencyKey: execution.idempotencyKey, createdAt,
  };
}

/** The hook's auto-disabling state after an attempt (`hook`: the row the attempt was sent with). */
export async function recordHookHealth(db: Tx, now: () => Date, hook: WebHook, attempt: AttemptRecord): Promise<void> {
  if (attempt.response && isSuccessStatus(attempt.response.status)) {
    // nothing to clear when the hook had no failures (the common case costs no statement)
    if (hook.recentFailures !== 0 || hook.disabledUntil !== null) await recordSuccess(db, hook.id);
  } else {
    await recordFailure(db, hook.id, now);
  }
}

function resultOf(attempt: AttemptRecord, logId: number): ExecutionResult {
  return attempt.response
    ? { sent: true, status: attempt.response.status, message: attempt.response.body, logId }
    : { sent: true, status: null, message: attempt.internalErrorMessage ?? "", logId };
}
