// The files of a snippet as its repository would hold them: the `files[]` actions of an update
// (create, update, delete, move) applied in order, and GitLab's default names for files sent
// without a path ("snippetfile1.txt", numbered past the highest one already there).
import type { FileAction, SnippetFileActionInput } from "./params.js";
import { isBlank } from "./params.js";

export interface FileContent {
  path: string;
  content: string;
}

export interface FileActionInput {
  action: FileAction;
  file_path?: string | null;
  previous_path?: string | null;
  content?: string | null;
}

const DEFAULT_NAME = /^snippetfile(\d+)\.txt$/;

/** Names for files without a path, continuing after the highest `snippetfileN.txt` present. */
export function defaultNames(existing: readonly string[]): () => string {
  let index = Math.max(0, ...existing.map((path) => Number(DEFAULT_NAME.exec(path)?.[1] ?? 0)));
  return () => `snippetfile${++index}.txt`;
}

/** SnippetInputAction's validations: what each action needs, and the path rules of update and move. */
export function isValidAction(file: SnippetFileActionInput): boolean {
  const { action, file_path: path, previous_path: previous, content } = file;
  if ((action === "update" || action === "delete") && isBlank(path)) return false;
  if ((action === "create" || action === "update") && isBlank(content)) return false;
  if (action === "update" && !isBlank(previous) && !isBlank(path) && previous !== path) return false;
  if (action === "move" && (isBlank(previous) || previous === path)) return false;
  return true;
}

/**
 * The files after the actions, or null when the commit would fail (a path that already exists
 * or does not exist, or no file left).
 */
export function applyFileActions(files: readonly FileContent[], actions: readonly FileActionInput[]): FileContent[] | null {
  const result = new Map(files.map((file) => [file.path, file.content]));
  const nextDefaultName = defaultNames(files.map((file) => file.path));
  for (const { action, file_path, previous_path, content } of actions) {
    const path = isBlank(file_path) ? null : file_path!;
    if (action === "create") {
      const target = path ?? nextDefaultName();
      if (result.has(target)) return null;
      result.set(target, content!);
    } else if (action === "update" || action === "delete") {
      if (!result.has(path!)) return null;
      if (action === "update") result.set(path!, content!);
      else result.delete(path!);
    } else {
      if (!result.has(previous_path!)) return null;
      const target = path ?? nextDefaultName();
      if (result.has(target)) return null;
      const kept = result.get(previous_path!)!;
      result.delete(previous_path!);
      result.set(target, content ?? kept);
    }
  }
  if (result.size === 0) return null;
  return [...result].map(([path, text]) => ({ path, content: text }));
}
