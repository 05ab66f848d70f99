// Value rules of issue attributes: title and description lengths and label lists (label titles
// as callers give them), which serve merge requests too; due dates, and the Markdown task list
// GitLab counts in descriptions.
import { taskCompletionStatus } from "../shared/task-lists.js";

const MAX_TITLE = 255;
const MAX_DESCRIPTION = 1_048_576;

/** Issuable's validations of title and description (issues and merge requests alike), by field. */
export function titleAndDescriptionErrors(title: string, description: string | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!title.trim()) add("title", "can't be blank");
  if ([...title].length > MAX_TITLE) add("title", `is too long (maximum is ${MAX_TITLE} characters)`);
  if (description != null && [...description].length > MAX_DESCRIPTION) add("description", `is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  return errors;
}

export interface LabelChanges {
  labels?: string[] | null;
  add_labels?: string[] | null;
  remove_labels?: string[] | null;
}

/** `labels` replaces the set, then `add_labels` and `remove_labels` apply; names are trimmed, blanks dropped. */
export function labelsAfter(current: string[], changes: LabelChanges): string[] {
  const names = new Set(changes.labels != null ? cleanNames(changes.labels) : current);
  for (const name of cleanNames(changes.add_labels ?? [])) names.add(name);
  for (const name of cleanNames(changes.remove_labels ?? [])) names.delete(name);
  return sortNames([...names]);
}

const cleanNames = (names: string[]) => names.map((name) => name.trim()).filter(Boolean);

/** GitLab's filter words: "None" (or the older "No Label") for no label at all, "Any" for at least one. */
const NO_LABEL = ["none", "no label"];
const ANY_LABEL = "any";

/** What the `labels` filter param of a list asks for: nothing, no label, any label, or every one of some names. */
export type LabelFilter = { kind: "none" } | { kind: "any" } | { kind: "every"; names: string[] } | null;

export function labelFilter(labels: string[] | null | undefined): LabelFilter {
  const names = cleanNames(labels ?? []);
  if (!names.length) return null;
  const lower = names.map((name) => name.toLowerCase());
  if (lower.some((name) => NO_LABEL.includes(name))) return { kind: "none" };
  if (lower.includes(ANY_LABEL)) return { kind: "any" };
  return { kind: "every", names };
}

type LabelsCondition = { labelLinks: { none: object } | { some: object } } | { AND: { labelLinks: { some: { label: { title: string } } } }[] };

/**
 * The filter as a condition on issues and merge requests, through their label links (indexed by
 * label): no label, any label, or a link to a label of each title, spelled exactly (GitLab
 * matches label titles case-sensitively).
 */
export function labelsCondition(filter: LabelFilter): LabelsCondition | null {
  if (!filter) return null;
  if (filter.kind === "none") return { labelLinks: { none: {} } };
  if (filter.kind === "any") return { labelLinks: { some: {} } };
  return { AND: filter.names.map((title) => ({ labelLinks: { some: { label: { title } } } })) };
}

/** `not[labels]`: none of those labels (GitLab's negated label filter leaves out what has any of them). */
export function notLabelsCondition(labels: string[] | null | undefined): { labelLinks: { none: { label: { title: { in: string[] } } } } } | null {
  const names = cleanNames(labels ?? []);
  return names.length ? { labelLinks: { none: { label: { title: { in: names } } } } } : null;
}

/** Ruby's String#sort order (bytewise), which GitLab applies to label names. */
export const sortNames = (names: string[]) =>
  [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/** A due date as Rails casts it into a date column: YYYY-MM-DD when valid, otherwise none. */
export function parseDueDate(value: string): string | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** GitLab's task_status text: "2 of 4 checklist items completed" ("" without a description). */
export function taskStatus(description: string | null): string {
  if (!description?.trim()) return "";
  const { count, completed_count } = taskCompletionStatus(description);
  return `${completed_count} of ${count} ${count === 1 ? "checklist item" : "checklist items"} completed`;
}
