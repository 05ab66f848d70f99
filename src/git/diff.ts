// Diffs between two commits (or trees) as git computes them: the changed files with their modes,
// object ids and paths from `git diff --raw -z` (unambiguous whatever the names), and each file's
// patch text from `git diff --patch`, read as a stream that stops once the caller has enough.
import { createInterface } from "node:readline";
import { runGit, spawnGit, gitEnvironment } from "./command.js";

export interface DiffFile {
  status: "A" | "M" | "D" | "T" | "R" | "C";
  oldPath: string;
  newPath: string;
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
}

export interface DiffPatch extends DiffFile {
  /** the patch from its first "@@" line (or git's "Binary files ... differ" line); "" when none */
  patch: string;
  binary: boolean;
  /** lines added and removed */
  additions: number;
  deletions: number;
}

const DIFF_OPTIONS = ["--no-color", "--no-ext-diff", "-M", "--full-index"];

/** The files changed from `from` (null: nothing) to `to`. */
export async function diffFiles(gitDir: string, from: string | null, to: string, paths: readonly string[] = []): Promise<DiffFile[]> {
  const args = ["diff", "--raw", "-z", ...DIFF_OPTIONS, "--abbrev=40", from ?? EMPTY_TREE_SHA, to];
  if (paths.length) args.push("--", ...paths.map((p) => `:(literal)${p}`));
  const out = await runGit(gitDir, args);
  return parseRaw(out.stdout.toString("utf8"));
}

const EMPTY_TREE_SHA = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

function parseRaw(text: string): DiffFile[] {
  const tokens = text.split("\0");
  const files: DiffFile[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const meta = tokens[i]!;
    if (!meta.startsWith(":")) continue;
    const [oldMode, newMode, oldSha, newSha, statusField] = meta.slice(1).split(" ");
    const status = statusField![0] as DiffFile["status"];
    const twoPaths = status === "R" || status === "C";
    const oldPath = tokens[++i]!;
    const newPath = twoPaths ? tokens[++i]! : oldPath;
    files.push({ status, oldPath, newPath, oldMode: oldMode!, newMode: newMode!, oldSha: oldSha!, newSha: newSha! });
  }
  return files;
}

export interface PatchLimits {
  /** stop once this many bytes of patch text were read (the rest of the files come without text) */
  maxBytes: number;
}

/**
 * The changed files with their patches. Patches are read in the order of `diffFiles` (git prints
 * both in the same order); past `limits.maxBytes` the reading stops and later files have no patch.
 */
export async function diffPatches(
  gitDir: string, from: string | null, to: string, limits: PatchLimits, paths: readonly string[] = [],
): Promise<{ files: DiffPatch[]; truncated: boolean; complete: number }> {
  const files = await diffFiles(gitDir, from, to, paths);
  if (!files.length) return { files: [], truncated: false, complete: 0 };
  const args = [`--git-dir=${gitDir}`, "diff", "--patch", ...DIFF_OPTIONS, from ?? EMPTY_TREE_SHA, to];
  if (paths.length) args.push("--", ...paths.map((p) => `:(literal)${p}`));
  const child = spawnGit(args, { env: gitEnvironment() });
  child.stderr!.resume();
  child.stdin!.end();
  const sections: { lines: string[]; bytes: number }[] = [];
  let bytes = 0;
  let truncated = false;
  const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.startsWith("diff --git ")) {
      sections.push({ lines: [], bytes: 0 });
      continue;
    }
    const section = sections.at(-1);
    if (!section) continue;
    section.lines.push(line);
    section.bytes += line.length + 1;
    bytes += line.length + 1;
    if (bytes > limits.maxBytes) {
      truncated = true;
      break;
    }
  }
  lines.close();
  child.kill();
  return {
    files: files.map((file, i) => ({ ...file, ...patchOf(sections[i]?.lines ?? []) })),
    truncated,
    /** how many of the files (first ones) have their whole patch */
    complete: truncated ? Math.max(sections.length - 1, 0) : files.length,
  };
}

/** The hunk text of one file's section, without git's header lines, and its line counts. */
function patchOf(lines: string[]): { patch: string; binary: boolean; additions: number; deletions: number } {
  const start = lines.findIndex((line) => line.startsWith("@@") || line.startsWith("Binary files "));
  if (start === -1) return { patch: "", binary: false, additions: 0, deletions: 0 };
  const body = lines.slice(start);
  if (body[0]!.startsWith("Binary files ")) return { patch: `${body[0]}\n`, binary: true, additions: 0, deletions: 0 };
  let additions = 0;
  let deletions = 0;
  for (const line of body) {
    if (line.startsWith("+")) additions++;
    else if (line.startsWith("-")) deletions++;
  }
  return { patch: `${body.join("\n")}\n`, binary: false, additions, deletions };
}

/**
 * The patch id of the diff from `from` to `to` (`git patch-id --verbatim`, what Gitaly's
 * GetPatchID answers), or null when the diff is empty.
 */
export async function patchId(gitDir: string, from: string | null, to: string): Promise<string | null> {
  const diff = await runGit(gitDir, ["diff", "--patch", ...DIFF_OPTIONS, from ?? EMPTY_TREE_SHA, to]);
  if (!diff.stdout.length) return null;
  const out = await runGit(gitDir, ["patch-id", "--verbatim"], { input: diff.stdout });
  return out.stdout.toString("utf8").split(" ")[0] || null;
}
