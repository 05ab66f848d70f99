// The contract fuzz run: generated requests against a server, each answer checked against the
// document (no 5xx, an answer within the timeout, a documented status, 2xx JSON bodies valid
// against the documented schema), then the health probe. Shared by test/fuzz/contract.test.ts
// (in process) and scripts/fuzz.ts (a real server process).
import { appendFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import {
  curlLine, documents, operationsOf, RequestGenerator, resolve, seededRandom,
  type Actor, type GeneratedRequest, type OpenApiDocument, type Operation, type PathValues,
} from "./generator.js";

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}
export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}
export type Send = (request: SentRequest) => Promise<Answer>;

export interface FuzzOptions {
  send: Send;
  /** origin printed in curl lines, e.g. http://127.0.0.1:8080 */
  origin: string;
  document: OpenApiDocument;
  actors: Actor[];
  pathValues: PathValues;
  requests: number;
  seed: number;
  timeoutMs: number;
  /** each finished request, for progress output */
  onAnswer?: (index: number) => void;
}

export interface Failure {
  operationId: string;
  kind: string;
  actor: string;
  problem: string;
  curl: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  operations: number;
  statuses: Record<string, number>;
  /** operations that answered at least one 2xx (their bodies were checked against the schema) */
  succeeded: number;
  failures: Failure[];
  healthAfter: number;
  millis: number;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const operations = operationsOf(options.document);
  const generator = new RequestGenerator(options.document, seededRandom(options.seed), options.pathValues, options.actors);
  const validators = new ResponseValidators(options.document);
  const statuses: Record<string, number> = {};
  const failures: Failure[] = [];
  const succeeded = new Set<string>();
  const plan = requestPlan(operations, options.requests);
  for (let i = 0; i < plan.length; i++) {
    const operation = plan[i]!;
    const request = generator.generate(operation);
    const fail = (problem: string) =>
      failures.push({ operationId: operation.operationId, kind: request.kind, actor: request.actor, problem, curl: curlLine(options.origin, request) });
    const answer = await withTimeout(options.send(request), options.timeoutMs).catch((error: Error) => error);
    options.onAnswer?.(i);
    if (answer instanceof Error) {
      statuses.error = (statuses.error ?? 0) + 1;
      fail(answer.message);
      continue;
    }
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (answer.status < 300) succeeded.add(operation.operationId);
    if (process.env.FUZZ_TRACE) appendFileSync(process.env.FUZZ_TRACE, `${JSON.stringify([i, operation.operationId, request.kind, request.actor, answer.status, request.method, request.url, answer.text.slice(0, 120)])}\n`);
    for (const problem of checkAnswer(operation, request, answer, validators)) fail(problem);
  }
  const health = await withTimeout(options.send({ method: "GET", url: "/-/health", headers: {} }), options.timeoutMs).catch(() => ({ status: 0 }));
  return { seed: options.seed, requests: plan.length, operations: operations.length, statuses, succeeded: succeeded.size, failures, healthAfter: health.status, millis: Date.now() - started };
}

/**
 * Every operation in turn, as many rounds as the count allows; DELETE operations come after all
 * the others so that the fixtures (projects, groups, users) exist for most of the run, and those
 * on the caller's own token (`/self`) last of all.
 */
export function requestPlan(operations: Operation[], count: number): Operation[] {
  const onSelf = (op: Operation) => op.path.endsWith("/self");
  const share = (ops: Operation[]) => Math.round((count * ops.length) / Math.max(1, operations.length));
  const deletes = operations.filter((op) => op.method === "DELETE" && !onSelf(op));
  const selfDeletes = operations.filter((op) => op.method === "DELETE" && onSelf(op));
  const others = operations.filter((op) => op.method !== "DELETE");
  const rounds = (ops: Operation[], n: number) => Array.from({ length: ops.length ? n : 0 }, (_, i) => ops[i % ops.length]!);
  const last = [...rounds(deletes, share(deletes)), ...rounds(selfDeletes, share(selfDeletes))];
  return [...rounds(others, count - last.length), ...last];
}

function checkAnswer(operation: Operation, request: GeneratedRequest, answer: Answer, validators: ResponseValidators): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`server error ${answer.status}: ${answer.text.slice(0, 300)}`);
  else if (!documents(operation, answer.status)) problems.push(`status ${answer.status} not documented (documented: ${operation.statuses.join(", ")}): ${answer.text.slice(0, 200)}`);
  if (answer.status >= 200 && answer.status < 300 && request.method !== "HEAD" && answer.contentType?.startsWith("application/json")) {
    const problem = validators.check(operation, answer.status, answer.text);
    if (problem) problems.push(`${answer.status} body does not match the documented schema: ${problem}`);
  }
  return problems;
}

/** Ajv validators of the documented 2xx JSON bodies, compiled once per operation and status. */
class ResponseValidators {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(private readonly document: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addFormat("binary", true);
    // component schemas refer to each other as "#/components/schemas/X": keep them under one base
    this.ajv.addSchema({ $id: "openapi:components", components: rebase(document.components ?? {}) });
  }

  check(operation: Operation, status: number, text: string): string | undefined {
    const validate = this.validator(operation, status);
    if (!validate) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return "not JSON";
    }
    if (validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors?.slice(0, 3), { dataVar: "body" });
  }

  private validator(operation: Operation, status: number): ValidateFunction | null {
    const key = `${operation.method} ${operation.path} ${status}`;
    if (!this.compiled.has(key)) {
      const op = this.document.paths[operation.path]![operation.method.toLowerCase()];
      const response = resolve(this.document, op.responses?.[String(status)]);
      const schema = response?.content?.["application/json"]?.schema;
      this.compiled.set(key, schema ? this.ajv.compile(rebase(schema)) : null);
    }
    return this.compiled.get(key)!;
  }
}

/** A schema copy whose `#/components/...` refs point into the schema added as openapi:components. */
function rebase(value: any): any {
  if (Array.isArray(value)) return value.map(rebase);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === "$ref" && typeof item === "string" && item.startsWith("#/components/") ? [key, `openapi:components${item}`] : [key, rebase(item)],
    ),
  );
}

/** A curl line up to 2,000 characters (oversize arrays make longer ones: the seed replays them). */
const shortened = (curl: string) => (curl.length <= 2000 ? curl : `${curl.slice(0, 2000)} ... (${curl.length} characters; replay with the seed)`);

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The figures and the first failures, for the console. */
export function formatReport(report: FuzzReport, shown = 20): string {
  const statuses = Object.entries(report.statuses).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}: ${n}`).join(", ");
  const lines = [
    `fuzz seed ${report.seed}: ${report.requests} requests over ${report.operations} operations in ${(report.millis / 1000).toFixed(1)} s`,
    `statuses: ${statuses}`,
    `operations with a 2xx answer: ${report.succeeded} of ${report.operations}`,
    `failures: ${report.failures.length}; /-/health afterwards: ${report.healthAfter}`,
  ];
  for (const failure of report.failures.slice(0, shown)) {
    lines.push(`- ${failure.operationId} [${failure.kind}] as ${failure.actor}: ${failure.problem}`, `  ${shortened(failure.curl)}`);
  }
  if (report.failures.length > shown) lines.push(`... and ${report.failures.length - shown} more`);
  return lines.join("\n");
}
