// Repository files API (lib/api/files.rb): a file at a ref with GitLab's blob_data (which REST
// also sends as X-Gitlab-* headers), its raw content, its blame, and the create, update and
// delete of one file. Those writes are commits of one file action made by the commits API's
// createCommit, as GitLab's Files::*Service are Commits::CreateService with one action.
// Grape checks the params before the project is looked up, so the resolvers run the check*
// functions here before findFile or the project finder.
import path from "node:path";
import { AppError, notFound } from "../../errors.js";
import type { ObjectInfo } from "../../git/cat-file.js";
import { GitCommandError, runGit } from "../../git/command.js";
import type { PathEntry } from "../../git/repository.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { canPushToBranch, findProjectWithCode } from "./access.js";
import { blobContent, blobSha256, limitLargeBlob, loadBlob, rawBlob, type LoadedBlob, type RawBlob } from "./blobs.js";
import { blankParamErrors, requireParams } from "./branches.js";
import { createCommit, type CommitActionInput } from "./commit-api.js";
import { readCommits, repositoryOf, resolveCommitSha, type CommitRecord, type GitRepository } from "./git.js";

const failed = (message: string) => new AppError(400, { message });

// --- params

/** `..` as a whole component (backslashes count as separators), or a newline. */
const TRAVERSAL = /^\.{1,2}$|^\.\.[/\\]|[/\\]\.\.$|[/\\]\.\.[/\\]|\n/;

/** CGI.unescape over a byte string (one character per byte): `+` is a space, `%xx` a byte. */
const unescapeBytes = (bytes: string) =>
  bytes.replace(/\+/g, " ").replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * GitLab's file_path validator: the param (decoded once by the router) is decoded once more; it
 * must not change when decoded again (it was encoded twice), must be UTF-8, must not climb out of
 * the repository or hold a newline, and must not be absolute.
 */
export function isValidFilePath(filePath: string): boolean {
  const decoded = unescapeBytes(Buffer.from(filePath, "utf8").toString("latin1"));
  if (decoded !== unescapeBytes(decoded)) return false;
  try {
    strictUtf8.decode(Buffer.from(decoded, "latin1"));
  } catch {
    return false;
  }
  return !TRAVERSAL.test(decoded) && !decoded.startsWith("/");
}

const filePathProblems = (filePath: string) => (isValidFilePath(filePath) ? [] : ["file_path should be a valid file path"]);

/** `ref` with `allow_blank: false`, required except on the raw route. */
function refProblems(ref: string | null | undefined, required: boolean): string[] {
  if (ref == null) return required ? ["ref is missing"] : [];
  return blankParamErrors({ ref });
}

// --- reading

/** GitLab's blob_data: what the API says of a file at a commit, in GitLab's order. */
export interface FileFacts {
  fileName: string;
  filePath: string;
  size: number;
  encoding: "base64";
  contentSha256: string;
  /** the ref as the caller gave it ("" when the raw route was given none) */
  ref: string;
  blobId: string;
  commitId: string;
  lastCommitId: string | null;
  executeFilemode: boolean;
}

/** A file at a commit, found by findFile. */
export interface FoundFile {
  projectId: number;
  /** the path and the ref as the caller gave them (null: no ref, the default branch) */
  filePath: string;
  ref: string | null;
  repo: GitRepository;
  commitSha: string;
  entry: PathEntry;
  info: ObjectInfo;
}

/**
 * assign_file_vars!: read_code on the project, the commit the ref names (no ref: the default
 * branch), then the blob at the path (a directory or a submodule is no file). The params are
 * checked first (checkFileRequest, checkRawFileRequest, checkBlameRequest).
 */
export async function findFile(ctx: DomainContext, id: string, filePath: string, ref: string | null | undefined): Promise<FoundFile> {
  const { project } = await findProjectWithCode(ctx, id);
  const repo = repositoryOf(ctx, project.id);
  const commitSha = await resolveCommitSha(repo, ref ?? project.defaultBranch);
  if (!commitSha) throw notFound("Commit");
  const entry = filePath.split("/").includes("") ? null : await repo.entryAt(commitSha, filePath);
  const info = entry?.type === "blob" ? await repo.info(entry.sha) : null;
  if (!entry || !info) throw notFound("File");
  return { projectId: project.id, filePath, ref: ref ?? null, repo, commitSha, entry, info };
}

async function fileFacts(found: FoundFile, blob: LoadedBlob): Promise<FileFacts> {
  const { filePath, ref } = found;
  const [contentSha256, lastCommitId] = await Promise.all([
    blobSha256(found.repo, blob),
    found.repo.lastCommitForPath(found.commitSha, filePath),
  ]);
  return {
    fileName: path.posix.basename(filePath),
    filePath,
    size: blob.size,
    encoding: "base64",
    contentSha256,
    ref: ref ?? "",
    blobId: blob.sha,
    commitId: found.commitSha,
    lastCommitId,
    executeFilemode: found.entry.mode === "100755",
  };
}

export interface FileView {
  facts: FileFacts;
  /** base64 */
  content: string;
}

/** GET /projects/:id/repository/files/:file_path (and HEAD), before the file is looked up. */
export function checkFileRequest(filePath: string, ref: string | null | undefined): void {
  requireParams([...filePathProblems(filePath), ...refProblems(ref, true)]);
}

/** GET /projects/:id/repository/files/:file_path (and HEAD): the file's facts and content. */
export async function fileView(ctx: DomainContext, found: FoundFile): Promise<FileView> {
  await limitLargeBlob(ctx, found.projectId, found.info.size);
  const blob = await loadBlob(found.repo, found.info);
  const content = await blobContent(found.repo, blob);
  return { facts: await fileFacts(found, { ...blob, content }), content: content.toString("base64") };
}

export interface RawFile {
  facts: FileFacts;
  raw: RawBlob;
}

/** GET /projects/:id/repository/files/:file_path/raw, before the file is looked up: the ref is optional. */
export function checkRawFileRequest(filePath: string, ref: string | null | undefined): void {
  requireParams([...filePathProblems(filePath), ...refProblems(ref, false)]);
}

/** GET /projects/:id/repository/files/:file_path/raw: the file's facts and content as it is. */
export async function rawFile(found: FoundFile): Promise<RawFile> {
  const blob = await loadBlob(found.repo, found.info);
  const [facts, raw] = await Promise.all([fileFacts(found, blob), rawBlob(found.repo, blob)]);
  return { facts, raw };
}

// --- blame

/** `range[start]` and `range[end]` as given (Grape coerces and checks them). */
export interface BlameRangeInput {
  start?: string | null;
  end?: string | null;
}

/** Lines in a row last changed by one commit (GitLab's BlameRange). */
export interface BlameRange {
  commit: CommitRecord;
  lines: string[];
}

export interface FileBlame {
  facts: FileFacts;
  ranges: BlameRange[];
}

/** Grape's checks of the optional range hash: both ends required, positive integers. */
function rangeProblems(range: BlameRangeInput | null | undefined): string[] {
  if (range == null) return [];
  return (["start", "end"] as const).flatMap((bound) => {
    const value = range[bound];
    const name = `range[${bound}]`;
    if (value == null) return [`${name} is missing`];
    if (!value.trim()) return [`${name} is empty`];
    if (!/^\s*[+-]?\d+\s*$/.test(value)) return [`${name} is invalid`];
    return Number(value) > 0 ? [] : [`${name} does not have a valid value`];
  });
}

/** GET /projects/:id/repository/files/:file_path/blame (and HEAD), before the file is looked up. */
export function checkBlameRequest(filePath: string, ref: string | null | undefined, range: BlameRangeInput | null | undefined): void {
  requireParams([...filePathProblems(filePath), ...refProblems(ref, true), ...rangeProblems(range)]);
}

/** GET /projects/:id/repository/files/:file_path/blame (and HEAD): the file's facts and its blame (of `range`'s lines). */
export async function fileBlame(ctx: DomainContext, found: FoundFile, range: BlameRangeInput | null | undefined): Promise<FileBlame> {
  const facts = await fileFacts(found, await loadBlob(found.repo, found.info));
  const lines = range ? { start: Number(range.start), end: Number(range.end) } : null;
  if (lines && lines.start > lines.end) throw failed("range[start] must be less than or equal to range[end]");
  return { facts, ranges: await blameRanges(ctx, found, lines) };
}

/** Gitlab::Blame#groups: consecutive lines of one commit make one range. */
async function blameRanges(ctx: DomainContext, found: FoundFile, lines: { start: number; end: number } | null): Promise<BlameRange[]> {
  const blamed = await blameLines(found.repo, found.commitSha, found.filePath, lines);
  const commits = await readCommits(ctx, found.projectId, [...new Set(blamed.map((line) => line.sha))]);
  const commitBySha = new Map(commits.map((commit) => [commit.sha, commit]));
  const ranges: BlameRange[] = [];
  for (const { sha, text } of blamed) {
    const last = ranges.at(-1);
    if (last?.commit.sha === sha) last.lines.push(text);
    else ranges.push({ commit: commitBySha.get(sha)!, lines: [text] });
  }
  return ranges;
}

/**
 * `git blame --porcelain`: each line's commit and text, in order. A range starting past the end
 * of the file blames nothing, as GitLab answers an empty list for it.
 */
async function blameLines(repo: GitRepository, commitSha: string, filePath: string, lines: { start: number; end: number } | null) {
  const range = lines ? ["-L", `${lines.start},${lines.end}`] : [];
  let output: Buffer;
  try {
    output = (await runGit(repo.gitDir, ["blame", "--porcelain", ...range, commitSha, "--", filePath])).stdout;
  } catch (error) {
    if (error instanceof GitCommandError && /has only \d+ lines?/.test(error.stderr)) return [];
    throw error;
  }
  const blamed: { sha: string; text: string }[] = [];
  let sha = "";
  for (const line of splitLines(output)) {
    if (line[0] === 0x09) blamed.push({ sha, text: line.toString("utf8", 1) });
    else sha = /^([0-9a-f]{40}) \d+ \d+/.exec(line.toString("latin1"))?.[1] ?? sha;
  }
  return blamed;
}

function splitLines(output: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  for (let start = 0; start < output.length; ) {
    const end = output.indexOf(0x0a, start);
    lines.push(output.subarray(start, end === -1 ? output.length : end));
    start = end === -1 ? output.length : end + 1;
  }
  return lines;
}

// --- writes

export interface FileWriteInput {
  branch?: string | null;
  commit_message?: string | null;
  start_branch?: string | null;
  author_email?: string | null;
  author_name?: string | null;
  /** create and update only */
  content?: string | null;
  encoding?: string | null;
  /** update only: the last commit of the file the caller saw */
  last_commit_id?: string | null;
  execute_filemode?: boolean | null;
}

/** What a write answers: the path as given and the branch. */
export interface FileCommitted {
  filePath: string;
  branch: string;
}

export type FileWrite = "create" | "update" | "delete";

const ENCODINGS = ["text", "base64"];

/** Grape's checks of a write, run before the project is looked up. */
export function checkFileWrite(write: FileWrite, filePath: string, input: FileWriteInput): void {
  requireParams(writeParamProblems(filePath, input, write));
}

/** Grape's checks, in the order the params are declared (DELETE takes no content). */
function writeParamProblems(filePath: string, input: FileWriteInput, write: FileWrite): string[] {
  const problems = filePathProblems(filePath);
  for (const name of ["branch", "commit_message"] as const) {
    const value = input[name];
    problems.push(...(value == null ? [`${name} is missing`] : blankParamErrors({ [name]: value })));
  }
  if (write === "delete") return problems;
  if (input.content == null) problems.push("content is missing");
  if (input.encoding != null && !ENCODINGS.includes(input.encoding)) problems.push("encoding does not have a valid value");
  return problems;
}

/** Repository#create_file, #update_file and #delete_file: a chmod follows when execute_filemode is given. */
function fileActions(write: FileWrite, filePath: string, input: FileWriteInput): CommitActionInput[] {
  if (write === "delete") return [{ action: "delete", file_path: filePath }];
  const change = {
    action: write,
    file_path: filePath,
    content: input.content,
    encoding: input.encoding,
    last_commit_id: write === "update" ? input.last_commit_id : null,
  };
  const chmod = input.execute_filemode == null ? [] : [{ action: "chmod", file_path: filePath, execute_filemode: input.execute_filemode }];
  return [change, ...chmod];
}

/** The commits API's refusal of a stale file, in the words of Files::UpdateService::FileChangedError. */
function asFileChanged(error: unknown): unknown {
  if (!(error instanceof AppError && error.message.startsWith("The file has changed since you started editing it"))) return error;
  return failed("You are attempting to update a file that has changed since you started editing it.");
}

/**
 * The service, in a project found by findProjectWithCodeToPush (`authorize! :push_code`, which
 * also needs the repository feature) after checkFileWrite: its refusal of a protected branch is a
 * 400 here (the commits API answers 403).
 */
async function writeFile(ctx: DomainContext, access: ProjectAccess, filePath: string, input: FileWriteInput, write: FileWrite): Promise<FileCommitted> {
  const branch = input.branch!;
  if (!(await canPushToBranch(ctx, access, branch))) throw failed("You are not allowed to push into this branch");
  try {
    await createCommit(ctx, access, {
      branch,
      commit_message: input.commit_message!,
      start_branch: input.start_branch,
      author_name: input.author_name,
      author_email: input.author_email,
      actions: fileActions(write, filePath, input),
      stats: false,
    });
  } catch (error) {
    throw asFileChanged(error);
  }
  return { filePath, branch };
}

/** POST /projects/:id/repository/files/:file_path */
export const createFile = (ctx: DomainContext, access: ProjectAccess, filePath: string, input: FileWriteInput) =>
  writeFile(ctx, access, filePath, input, "create");

/** PUT /projects/:id/repository/files/:file_path */
export const updateFile = (ctx: DomainContext, access: ProjectAccess, filePath: string, input: FileWriteInput) =>
  writeFile(ctx, access, filePath, input, "update");

/** DELETE /projects/:id/repository/files/:file_path (last_commit_id is not a param of it). */
export async function deleteFile(ctx: DomainContext, access: ProjectAccess, filePath: string, input: FileWriteInput): Promise<boolean> {
  await writeFile(ctx, access, filePath, input, "delete");
  return true;
}
