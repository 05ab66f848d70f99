// Diffs as GitLab's API shows them (Entities::Diff), with Gitlab::Git::DiffCollection's limits:
// at most 1,000 files, 50,000 lines and 5,120,000 bytes in a collection (overflow past them); a
// file's patch of 200 KB or more is left out as too_large; unless expanded, a patch of 20 KB or
// more, and every file once the safe limits (100 files, 5,000 lines, 512,000 bytes) are passed, is
// collapsed (left out, to be asked for on its own).
import { diffPatches, type DiffPatch } from "../../git/diff.js";
import type { GitRepository } from "./git.js";

export interface DiffView {
  diff: string;
  collapsed: boolean;
  too_large: boolean;
  new_path: string;
  old_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean | null;
}

export const DIFF_LIMITS = {
  maxFiles: 1000,
  maxLines: 50_000,
  maxBytes: 1000 * 5 * 1024,
  safeMaxFiles: 100,
  safeMaxLines: 5_000,
  safeMaxBytes: 100 * 5 * 1024,
  maxPatchBytes: 200 * 1024,
} as const;

export interface DiffCollection {
  diffs: DiffView[];
  /** the collection stopped at a limit: more files changed than are listed */
  overflow: boolean;
  /** how many files changed ("1000+" when it overflowed), GitLab's changes_count */
  realSize: string;
}

export interface DiffOptions {
  /** no collapsing (the commit diff endpoint), the hard limits still apply */
  expanded?: boolean;
  /** `--- a/old` / `+++ b/new` lines before the hunks */
  unidiff?: boolean;
  /** GitLab's generated_file: false for a merge request's diffs (it checks them), null elsewhere */
  generated?: boolean | null;
}

/** Git's own mode notation, "0" for a side that does not exist. */
const mode = (value: string) => (/^0+$/.test(value) ? "0" : value.replace(/^0+/, ""));

function unidiffHeader(file: DiffPatch): string {
  const from = file.status === "A" ? "/dev/null" : `a/${file.oldPath}`;
  const to = file.status === "D" ? "/dev/null" : `b/${file.newPath}`;
  return `--- ${from}\n+++ ${to}\n`;
}

function view(file: DiffPatch, diff: string, flags: { collapsed: boolean; tooLarge: boolean }, options: DiffOptions): DiffView {
  return {
    diff: diff && options.unidiff ? unidiffHeader(file) + diff : diff,
    collapsed: flags.collapsed,
    too_large: flags.tooLarge,
    new_path: file.newPath,
    old_path: file.oldPath,
    a_mode: mode(file.oldMode),
    b_mode: mode(file.newMode),
    new_file: file.status === "A",
    renamed_file: file.status === "R",
    deleted_file: file.status === "D",
    generated_file: options.generated ?? null,
  };
}

/**
 * What a raw diff (access_raw_diffs: `raw_diffs(limits: false)`) reads of git's output at most:
 * GitLab sets no limit; this one keeps a huge change from filling the server's small heap.
 */
export const RAW_DIFF_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The diff from `from` to `to` without GitLab's collection limits (no file left out, collapsed or
 * too_large), as `access_raw_diffs` asks; it overflows only past RAW_DIFF_MAX_BYTES.
 */
export async function rawDiffCollection(repo: GitRepository, from: string | null, to: string, options: DiffOptions = {}): Promise<DiffCollection> {
  const { files, complete } = await diffPatches(repo.gitDir, from, to, { maxBytes: RAW_DIFF_MAX_BYTES });
  const diffs = files.slice(0, complete).map((file) => view(file, file.patch, { collapsed: false, tooLarge: false }, options));
  const overflow = diffs.length < files.length;
  return { diffs, overflow, realSize: overflow ? `${diffs.length}+` : String(diffs.length) };
}

/** The diff from `from` (null: the empty tree) to `to`, within GitLab's limits. */
export async function diffCollection(repo: GitRepository, from: string | null, to: string, options: DiffOptions = {}): Promise<DiffCollection> {
  const { files, truncated } = await diffPatches(repo.gitDir, from, to, { maxBytes: DIFF_LIMITS.maxBytes + DIFF_LIMITS.maxPatchBytes });
  const diffs: DiffView[] = [];
  let lines = 0;
  let bytes = 0;
  let overflow = false;
  for (const file of files) {
    if (diffs.length >= DIFF_LIMITS.maxFiles) {
      overflow = true;
      break;
    }
    const size = Buffer.byteLength(file.patch);
    const tooLarge = size >= DIFF_LIMITS.maxPatchBytes;
    const fileLines = tooLarge ? 0 : file.patch.split("\n").length - 1;
    if (!tooLarge && (lines + fileLines > DIFF_LIMITS.maxLines || bytes + size > DIFF_LIMITS.maxBytes)) {
      overflow = true;
      break;
    }
    const pastSafeLimits = diffs.length >= DIFF_LIMITS.safeMaxFiles || lines > DIFF_LIMITS.safeMaxLines || bytes >= DIFF_LIMITS.safeMaxBytes;
    const collapsed = !tooLarge && !options.expanded && files.length > 1 && file.patch !== "" && (size >= DIFF_LIMITS.maxPatchBytes / 10 || pastSafeLimits);
    if (!tooLarge) {
      lines += fileLines;
      bytes += size;
    }
    diffs.push(view(file, tooLarge || collapsed ? "" : file.patch, { collapsed, tooLarge }, options));
  }
  if (truncated && diffs.length < files.length) overflow = true;
  return { diffs, overflow, realSize: overflow ? `${diffs.length}+` : String(diffs.length) };
}
