// What issues and merge requests (GitLab's issuables) show alike: time stats, task list
// progress, references, and the helpers that load their users.
import type { Context } from "../context.js";
import { builder } from "./builder.js";
import { userLoader } from "../domain/shared/loaders.js";
import { milestoneLoader } from "../domain/milestones/loaders.js";
import { milestoneEntity } from "../domain/milestones/presenter.js";
import { labelsOfIssuable, type IssuableKind } from "../domain/labels/issuable-labels.js";
import { LABEL_BASIC_SCHEMA, labelBasic } from "./labels.js";

/** GitLab's `not` Hash of the issue and merge request lists: `not[labels]=a,b` leaves out what has any of them. */
export const IssuableNotFilter = builder.inputType("IssuableNotFilter", {
  fields: (t) => ({ labels: t.stringList({ required: false }) }),
});

/** IssuableTimeStats: there is no time tracking here, so nothing is estimated or spent. */
export const TimeStats = builder.objectRef<Record<string, never>>("TimeStats").implement({
  fields: (t) => ({
    time_estimate: t.int({ resolve: () => 0 }),
    total_time_spent: t.int({ resolve: () => 0 }),
    human_time_estimate: t.string({ nullable: true, resolve: () => null }),
    human_total_time_spent: t.string({ nullable: true, resolve: () => null }),
  }),
});

/** Taskable's task_completion_status: the description's task list items, and the checked ones. */
export const TaskCompletionStatus = builder.objectRef<{ count: number; completed_count: number }>("TaskCompletionStatus").implement({
  fields: (t) => ({ count: t.exposeInt("count"), completed_count: t.exposeInt("completed_count") }),
});

/** IssuableReferences: `short`, `relative` (to where the issuable was requested from) and `full`. */
export const IssuableReferences = builder.objectRef<{ short: string; relative: string; full: string }>("IssuableReferences").implement({
  fields: (t) => ({ short: t.exposeString("short"), relative: t.exposeString("relative"), full: t.exposeString("full") }),
});

/**
 * `with_labels_details=true` on an issue or merge request list: its issuables' `labels` become
 * LabelBasic objects (GitLab's single reads and writes take no such param and show titles).
 */
export function showLabelsDetails(ctx: Context, asked: boolean | null | undefined): void {
  if (asked) ctx.rest.labelsDetails = true;
}

/** The issuable's `labels` field: titles, or LabelBasic objects when the list asked for them; documented as either. */
export const labelsField = {
  type: ["JSON"] as ["JSON"],
  extensions: { openapi: { type: "array", items: { anyOf: [{ type: "string" }, LABEL_BASIC_SCHEMA] } } },
};

export async function labelsShown(ctx: Context, kind: IssuableKind, id: number): Promise<unknown[]> {
  const labels = await labelsOfIssuable(ctx, kind, id);
  return ctx.rest.labelsDetails ? labels.map(labelBasic) : labels.map((label) => label.title);
}

/** A user by id (none without one). */
export const user = (ctx: Context, id: number | null) => (id == null ? null : ctx.loaders.get(userLoader).load(id));

/**
 * The user ids of assignee or reviewer rows, ascending: the join rows have no order of their own
 * (SQLite and PostgreSQL would hand them back differently), so issues and merge requests both
 * list their people by id.
 */
export const userIdsOf = (rows: { userId: number }[]) => rows.map((row) => row.userId).sort((a, b) => a - b);

/** Users by id, in the order given; ids of deleted users are left out. */
export const users = async (ctx: Context, ids: number[]) =>
  (await Promise.all(ids.map((id) => ctx.loaders.get(userLoader).load(id)))).filter((u) => u !== null);

/** Resolver of the attributes GitLab has and this server does not (milestones, epics, ...). */
export const none = () => null;

/** An issuable's milestone as GitLab's Milestone entity (none without one); a page's milestones load in one statement. */
export const milestoneOf = async (ctx: Context, id: number | null) => {
  const milestone = id == null ? null : await ctx.loaders.get(milestoneLoader).load(id);
  return milestone && milestoneEntity(ctx, milestone);
};
