// The files each commit changed against its first parent (all of them for a root commit): one
// `git diff-tree --stdin` for many commits.
import { runGit } from "./command.js";
import type { CommitObject } from "./objects.js";

export interface FileChange {
  /** git's status letter: A added, M modified, D deleted, T type changed, R renamed, C copied */
  status: "A" | "M" | "D" | "T" | "R" | "C";
  path: string;
  /** the old path of a rename or copy */
  fromPath?: string;
}

const isSha = (token: string) => /^[0-9a-f]{40}$/.test(token);

export async function changedFilesOfCommits(gitDir: string, commits: readonly CommitObject[], env?: Record<string, string>): Promise<Map<string, FileChange[]>> {
  const changes = new Map<string, FileChange[]>(commits.map((c) => [c.sha, []]));
  if (!commits.length) return changes;
  const input = commits.map((c) => (c.parents.length ? `${c.sha} ${c.parents[0]}\n` : `${c.sha}\n`)).join("");
  const out = await runGit(gitDir, ["diff-tree", "--stdin", "-r", "-z", "--name-status", "-M", "--root"], { input, env });
  // each commit's id comes first, then its changes
  const tokens = out.stdout.toString("utf8").split("\0");
  let current: FileChange[] | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token) continue;
    if (isSha(token) && changes.has(token)) {
      current = changes.get(token);
      continue;
    }
    const status = token[0] as FileChange["status"];
    if (status === "R" || status === "C") {
      current?.push({ status, fromPath: tokens[i + 1]!, path: tokens[i + 2]! });
      i += 2;
    } else {
      current?.push({ status, path: tokens[i + 1]! });
      i += 1;
    }
  }
  return changes;
}
