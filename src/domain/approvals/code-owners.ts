// Selective code owner removals. Forgeline keeps no file contents, so there is no CODEOWNERS file
// to read: a code owner rule of a merge request carries its CODEOWNERS pattern as its name (as
// GitLab names them) and its owners as approvers. The rule applied: when the source branch
// advances, the approvals given by approvers of a code owner rule are removed if a path that one of
// the new commits adds, modifies or removes matches that rule's pattern; all other approvals stay.
// Patterns follow CODEOWNERS (gitignore) syntax: a leading "/" anchors at the root, a pattern
// without "/" matches at any depth, a trailing "/" means a directory, "*" stays within one path
// segment, "**" spans segments, and a pattern naming a directory covers everything below it.
import type { Tx } from "../events.js";

const escape = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, "\\$&");

function globBody(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += escape(c);
  }
  return out;
}

export function codeOwnerPatternMatches(pattern: string, path: string): boolean {
  let glob = pattern.trim();
  if (!glob) return false;
  const anchored = glob.startsWith("/");
  glob = glob.replace(/^\/+/, "");
  const directory = glob.endsWith("/");
  glob = glob.replace(/\/+$/, "");
  if (!glob) return true; // "/" owns the whole repository
  const start = anchored || glob.includes("/") ? "^" : "^(?:.*/)?";
  const end = directory ? "/.*$" : "(?:/.*)?$";
  return new RegExp(start + globBody(glob) + end).test(path.replace(/^\/+/, ""));
}

/** The paths the commits add, modify or remove. */
export async function changedPaths(tx: Tx, projectId: number, shas: string[]): Promise<string[]> {
  if (!shas.length) return [];
  const commits = await tx.commit.findMany({ where: { projectId, sha: { in: shas } }, select: { addedPaths: true, modifiedPaths: true, removedPaths: true } });
  const paths = commits.flatMap((c) => [c.addedPaths, c.modifiedPaths, c.removedPaths].flatMap((json) => JSON.parse(json) as string[]));
  return [...new Set(paths)];
}
