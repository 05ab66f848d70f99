// File actions of a commit applied to the tree of paths (no contents are kept), with the errors
// Gitaly's index gives: a file that already exists, a file that does not, a bad path.
import path from "node:path";
import { AppError } from "../../errors.js";

export const FILE_ACTIONS = ["create", "update", "move", "delete", "chmod"] as const;
export type FileActionKind = (typeof FILE_ACTIONS)[number];

export interface FileAction {
  action: FileActionKind;
  file_path: string;
  previous_path?: string | null;
  content?: string | null;
  encoding?: string | null;
}

export interface TreeChange {
  /** every file path after the change, sorted */
  tree: string[];
  added: string[];
  modified: string[];
  removed: string[];
  /** lines of the new contents; deletions are unknown without stored contents and stay 0 */
  additions: number;
  deletions: number;
}

const indexError = (message: string) => new AppError(400, { message });

/** Gitaly's validatePath: relative to the repository root, no `//`, never above the root. */
function cleanPath(raw: string): string {
  if (raw === "") throw indexError("You must provide a file path");
  if (raw.includes("//")) throw indexError(`invalid path: '${raw}'`);
  const root = "/root";
  const joined = path.posix.normalize(`${root}/${raw}`);
  if (!joined.startsWith(`${root}/`)) {
    if (joined === root) throw indexError("You must provide a file path");
    throw indexError("Path cannot include directory traversal");
  }
  return joined.slice(root.length + 1).replace(/\/$/, "");
}

/** Number of lines in a text (a last line without newline counts). */
function lineCount(action: FileAction): number {
  if (action.content == null || action.content === "") return 0;
  const text = action.encoding === "base64" ? Buffer.from(action.content, "base64").toString("utf8") : action.content;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

class Tree {
  readonly files: Set<string>;
  readonly added = new Set<string>();
  readonly modified = new Set<string>();
  readonly removed = new Set<string>();
  additions = 0;

  constructor(paths: string[]) {
    this.files = new Set(paths);
  }

  isDirectory(file: string): boolean {
    for (const existing of this.files) if (existing.startsWith(`${file}/`)) return true;
    return false;
  }

  requireFile(file: string): void {
    if (!this.files.has(file)) throw indexError("A file with this name doesn't exist");
  }

  requireFree(file: string): void {
    if (this.files.has(file)) throw indexError("A file with this name already exists");
    if (this.isDirectory(file)) throw indexError("A directory with this name already exists");
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) {
      if (this.files.has(parts.slice(0, i).join("/"))) throw indexError("A file with this name already exists");
    }
  }

  add(file: string): void {
    this.files.add(file);
    if (this.removed.delete(file)) this.modified.add(file);
    else this.added.add(file);
  }

  remove(file: string): void {
    this.files.delete(file);
    this.modified.delete(file);
    if (!this.added.delete(file)) this.removed.add(file);
  }

  modify(file: string): void {
    if (!this.added.has(file)) this.modified.add(file);
  }

  apply(action: FileAction): void {
    const file = cleanPath(action.file_path);
    switch (action.action) {
      case "create":
        this.requireFree(file);
        this.add(file);
        break;
      case "update":
      case "chmod":
        this.requireFile(file);
        this.modify(file);
        break;
      case "delete":
        this.requireFile(file);
        this.remove(file);
        return;
      case "move": {
        const previous = cleanPath(action.previous_path ?? "");
        this.requireFile(previous);
        if (previous !== file) {
          this.requireFree(file);
          this.remove(previous);
          this.add(file);
        }
        break;
      }
    }
    if (action.action !== "chmod") this.additions += lineCount(action);
  }
}

const sorted = (paths: Iterable<string>) => [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The tree after the actions, applied in order (a later action sees the earlier ones). */
export function applyActions(paths: string[], actions: FileAction[]): TreeChange {
  const tree = new Tree(paths);
  for (const action of actions) tree.apply(action);
  return {
    tree: sorted(tree.files),
    added: sorted(tree.added),
    modified: sorted(tree.modified),
    removed: sorted(tree.removed),
    additions: tree.additions,
    deletions: 0,
  };
}
