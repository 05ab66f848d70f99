// Markdown task lists in issue and merge request descriptions (GitLab's Taskable).

export interface TaskCompletionStatus {
  count: number;
  completed_count: number;
}

/** List items with a checkbox followed by text ("- [ ] a", "1. [x] b", "> * [X] c"). */
const TASK_ITEM = /^(?:>\s{0,4})*(?:\s*(?:[-+*]|\d+[.)]))+\s+\[([xX]|\s)\]\s.+/;

export function taskCompletionStatus(description: string | null): TaskCompletionStatus {
  const items = (description ?? "").split(/\r?\n/).map((line) => TASK_ITEM.exec(line)).filter((m) => m !== null);
  return { count: items.length, completed_count: items.filter((m) => /[xX]/.test(m[1]!)).length };
}
