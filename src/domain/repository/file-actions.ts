// The file actions of a commit (Gitaly's UserCommitFiles): applied in order to the tree of the
// start commit, with the errors Gitaly's index gives (a file that already exists, one that does
// not, a bad path), then written as real blobs and trees. Only the directories an action touches
// are read.
import path from "node:path";
import { AppError } from "../../errors.js";
import type { TreeEntry } from "../../git/objects.js";
import type { GitRepository } from "./git.js";

export const FILE_ACTIONS = ["create", "update", "move", "delete", "chmod"] as const;
export type FileActionKind = (typeof FILE_ACTIONS)[number];

export interface FileAction {
  action: FileActionKind;
  file_path: string;
  previous_path?: string | null;
  content?: string | null;
  encoding?: string | null;
  execute_filemode?: boolean | null;
}

const indexError = (message: string) => new AppError(400, { message });

const REGULAR = "100644";
const EXECUTABLE = "100755";
const DIRECTORY = "40000";

/**
 * Gitaly's path checks: relative to the repository root, no `//`, never above the root, and no
 * `.git` folder (git itself would refuse such a tree).
 */
export function cleanPath(raw: string): string {
  if (raw === "") throw indexError("You must provide a file path");
  if (raw.includes("//") || raw.includes("\0")) throw indexError(`invalid path: '${raw.replace(/\0/g, "")}'`);
  const root = "/root";
  const joined = path.posix.normalize(`${root}/${raw}`);
  if (!joined.startsWith(`${root}/`)) {
    if (joined === root) throw indexError("You must provide a file path");
    throw indexError("Path cannot include directory traversal");
  }
  const clean = joined.slice(root.length + 1).replace(/\/$/, "");
  if (clean.split("/").some((part) => part.toLowerCase() === ".git")) throw indexError(`invalid path: '${raw}'`);
  return clean;
}

export function decodeContent(content: string | null | undefined, encoding: string | null | undefined): Buffer {
  if (content == null) return Buffer.alloc(0);
  return encoding === "base64" ? Buffer.from(content, "base64") : Buffer.from(content, "utf8");
}

/** A directory being edited: its entries, the subdirectories opened so far, whether it changed. */
interface Folder {
  entries: Map<string, TreeEntry>;
  opened: Map<string, Folder>;
  changed: boolean;
}

class Worktree {
  private constructor(
    private readonly repo: GitRepository,
    private readonly root: Folder,
  ) {}

  static async open(repo: GitRepository, treeSha: string | null): Promise<Worktree> {
    return new Worktree(repo, await Worktree.folder(repo, treeSha));
  }

  private static async folder(repo: GitRepository, treeSha: string | null): Promise<Folder> {
    const entries = treeSha ? ((await repo.tree(treeSha)) ?? []) : [];
    return { entries: new Map(entries.map((e) => [e.name, e])), opened: new Map(), changed: false };
  }

  /** The folder holding `file` (created along the way when `create`), and the file's name in it. */
  private async parentOf(file: string, create: boolean): Promise<{ folder: Folder; name: string; chain: Folder[] } | null> {
    const parts = file.split("/");
    const name = parts.pop()!;
    let folder = this.root;
    const chain = [folder];
    for (const part of parts) {
      let child = folder.opened.get(part);
      if (!child) {
        const entry = folder.entries.get(part);
        if (entry && entry.type !== "tree") {
          if (create) throw indexError("A file with this name already exists");
          return null;
        }
        if (!entry && !create) return null;
        child = await Worktree.folder(this.repo, entry?.sha ?? null);
        folder.opened.set(part, child);
        if (!entry) folder.entries.set(part, { mode: DIRECTORY, type: "tree", name: part, sha: "" });
      }
      folder = child;
      chain.push(folder);
    }
    return { folder, name, chain };
  }

  async fileAt(file: string): Promise<TreeEntry | null> {
    const parent = await this.parentOf(file, false);
    const entry = parent?.folder.entries.get(parent.name);
    return entry && entry.type !== "tree" ? entry : null;
  }

  private async requireFile(file: string): Promise<TreeEntry> {
    const entry = await this.fileAt(file);
    if (!entry) throw indexError("A file with this name doesn't exist");
    return entry;
  }

  /** Sets (or removes, with null) the entry for `file`, marking the folders up to the root changed. */
  private async put(file: string, entry: Omit<TreeEntry, "name"> | null): Promise<void> {
    const parent = (await this.parentOf(file, entry !== null))!;
    if (entry) parent.folder.entries.set(parent.name, { ...entry, name: parent.name });
    else parent.folder.entries.delete(parent.name);
    for (const folder of parent.chain) folder.changed = true;
  }

  private async requireFree(file: string): Promise<void> {
    const parent = await this.parentOf(file, true);
    const existing = parent!.folder.entries.get(parent!.name);
    if (existing?.type === "tree") throw indexError("A directory with this name already exists");
    if (existing) throw indexError("A file with this name already exists");
  }

  async apply(action: FileAction): Promise<void> {
    const file = cleanPath(action.file_path);
    const blob = async () => this.repo.writeBlob(decodeContent(action.content, action.encoding));
    switch (action.action) {
      case "create":
        await this.requireFree(file);
        await this.put(file, { mode: action.execute_filemode ? EXECUTABLE : REGULAR, type: "blob", sha: await blob() });
        return;
      case "update": {
        const existing = await this.requireFile(file);
        await this.put(file, { mode: existing.mode, type: "blob", sha: await blob() });
        return;
      }
      case "chmod": {
        const existing = await this.requireFile(file);
        await this.put(file, { ...existing, mode: action.execute_filemode ? EXECUTABLE : REGULAR });
        return;
      }
      case "delete":
        await this.requireFile(file);
        await this.put(file, null);
        return;
      case "move": {
        const previous = cleanPath(action.previous_path ?? "");
        const existing = await this.requireFile(previous);
        const sha = action.content != null ? await blob() : existing.sha;
        if (previous !== file) {
          await this.requireFree(file);
          await this.put(previous, null);
        }
        await this.put(file, { mode: existing.mode, type: existing.type, sha });
      }
    }
  }

  /** Writes the changed folders bottom up; returns the root tree's id. */
  async write(): Promise<string> {
    return this.writeFolder(this.root);
  }

  private async writeFolder(folder: Folder): Promise<string> {
    for (const [name, child] of folder.opened) {
      if (!child.changed) continue;
      if (child.entries.size === 0) {
        folder.entries.delete(name); // git keeps no empty folders
        continue;
      }
      folder.entries.set(name, { mode: DIRECTORY, type: "tree", name, sha: await this.writeFolder(child) });
    }
    return this.repo.writeTree([...folder.entries.values()]);
  }
}

/** The tree after the actions, applied in order (a later action sees the earlier ones). */
export async function applyFileActions(repo: GitRepository, baseTreeSha: string | null, actions: readonly FileAction[]): Promise<string> {
  const worktree = await Worktree.open(repo, baseTreeSha);
  for (const action of actions) await worktree.apply(action);
  return worktree.write();
}
