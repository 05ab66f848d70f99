// Value rules of issue attributes: label lists (stored as a JSON array of names), due dates,
// and the Markdown task list GitLab counts in descriptions.
import type { Issue } from "../../generated/prisma/client.js";
import { taskCompletionStatus } from "../task-lists.js";

/** The issue's label names, sorted as GitLab lists them. */
export function labelsOf(issue: Pick<Issue, "labels">): string[] {
  const parsed: unknown = JSON.parse(issue.labels || "[]");
  return Array.isArray(parsed) ? parsed.map(String) : [];
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
