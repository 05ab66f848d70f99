// The rules of commit statuses posted from outside CI: the states a caller may post, the state
// machine GitLab's CommitStatus moves through (and the transitions it refuses), the validations of
// GenericCommitStatus, and the composite status of a pipeline's latest statuses.
import { AppError, validationError } from "../../errors.js";

export const POSTED_STATES = ["pending", "running", "success", "failed", "canceled", "skipped"] as const;
export type PostedState = (typeof POSTED_STATES)[number];

/** A status row's state: "created" only while it is being posted. */
export type StatusState = PostedState | "created";

interface Transition {
  event: string;
  from: readonly StatusState[];
  to: StatusState;
}

/** CommitStatus's state machine events (those a posted state fires), with the states each leaves. */
const ENQUEUE: Transition = { event: "enqueue", from: ["created", "skipped"], to: "pending" };
const RUN: Transition = { event: "run", from: ["pending"], to: "running" };
const EVENTS: Record<PostedState, Transition[]> = {
  pending: [ENQUEUE],
  // `enqueue` without the bang first (a running status stays running), then `run!`
  running: [{ ...ENQUEUE, event: "" }, RUN],
  success: [{ event: "success", from: ["created", "pending", "running"], to: "success" }],
  failed: [{ event: "drop", from: ["created", "pending", "running"], to: "failed" }],
  canceled: [{ event: "cancel", from: ["created", "pending", "running"], to: "canceled" }],
  skipped: [{ event: "skip", from: ["created", "pending"], to: "skipped" }],
};

export interface StatusTimes {
  status: string;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/**
 * Moves a status to the posted state as GitLab's events do: started_at when it starts running,
 * finished_at when it succeeds, fails or is canceled; a transition the machine refuses answers
 * 400 "Cannot transition status via :run from :running".
 */
export function transition(current: StatusTimes, state: PostedState, now: Date): StatusTimes {
  let next: StatusTimes = { status: current.status, startedAt: current.startedAt, finishedAt: current.finishedAt };
  for (const step of EVENTS[state]) {
    if (!(step.from as readonly string[]).includes(next.status)) {
      if (!step.event) continue;
      throw new AppError(400, { message: `Cannot transition status via :${step.event} from :${next.status}` });
    }
    if (step.to === "running" && !next.startedAt) next = { ...next, startedAt: now };
    if (["success", "failed", "canceled"].includes(step.to)) next = { ...next, finishedAt: now };
    next = { ...next, status: step.to };
  }
  return next;
}

export interface StatusInput {
  state: string;
  ref?: string | null;
  name?: string | null;
  context?: string | null;
  target_url?: string | null;
  description?: string | null;
  coverage?: number | null;
  pipeline_id?: number | null;
}

/** `name`, or its alias `context`, or "default" (an empty name stays empty, and is refused). */
export const statusName = (input: StatusInput) => input.name ?? input.context ?? "default";

/** GenericCommitStatus's validations: a present name, and target_url an http(s) URL of at most 255 characters. */
export function checkStatusRecord(input: StatusInput): void {
  const errors: Record<string, string[]> = {};
  if (!statusName(input).trim()) errors.name = ["can't be blank"];
  const url = input.target_url?.trim();
  if (url != null) {
    const problems: string[] = [];
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      problems.push("is blocked: URI is invalid");
    }
    if (parsed && !["http:", "https:"].includes(parsed.protocol)) problems.push("is blocked: Only allowed schemes are http, https");
    if (url.length > 255) problems.push("is too long (maximum is 255 characters)");
    if (problems.length) errors.target_url = problems;
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

/**
 * Gitlab::Ci::Status::Composite over the latest statuses of a pipeline (external statuses never
 * allow failure, so there are no warnings): null for none.
 */
export function compositeStatus(statuses: readonly string[]): string | null {
  if (!statuses.length) return null;
  const set = new Set(statuses);
  const onlyOf = (...names: string[]) => [...set].every((status) => names.includes(status));
  const anyOf = (...names: string[]) => names.some((name) => set.has(name));
  if (onlyOf("skipped")) return "skipped";
  if (onlyOf("success", "skipped")) return "success";
  if (onlyOf("created")) return "created";
  if (onlyOf("canceled", "success", "skipped")) return "canceled";
  if (onlyOf("pending", "created", "skipped")) return "pending";
  if (anyOf("running", "pending")) return "running";
  if (anyOf("created")) return "running";
  return "failed";
}
