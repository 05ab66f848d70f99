// Commits API (lib/api/commits.rb): history of a ref, one commit, the merge base of refs, and a
// commit of file actions (Files::MultiService / Commits::CreateService) that advances or creates
// a branch, written as real git objects and moved through the one ref-update path.
import { AppError, forbidden, notFound } from "../../errors.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA } from "../shared/events.js";
import type { Page, PageArgs } from "../shared/pagination.js";
import { pageWindow } from "../shared/pagination.js";
import { canPushToBranch, findRepositoryProject, requireRepositoryEnabled } from "./access.js";
import { blankParamErrors, branchNamed, requireParams } from "./branches.js";
import { applyFileActions, cleanPath, FILE_ACTIONS, type FileAction } from "./file-actions.js";
import { commitRecord, readCommit, readCommits, repositoryOf, resolveCommit, resolveCommitSha, signature, type CommitRecord, type GitRepository } from "./git.js";
import { BRANCH_PREFIX, moveRefs, withRepository } from "./ref-updates.js";
import { isValidBranchName, looksLikeSha } from "./refs.js";

/** A commit as GitLab's CommitDetail shows it: with its stats unless the caller asked without. */
export type CommitDetailView = CommitRecord & { stats: { additions: number; deletions: number } | null };

export interface CommitFilters {
  ref_name?: string | null;
  all?: boolean | null;
  since?: Date | null;
  until?: Date | null;
  path?: string | null;
  author?: string | null;
  first_parent?: boolean | null;
  order?: "default" | "topo" | null;
}

/**
 * GET /projects/:id/repository/commits (Repository#commits over `git log`): a ref that names
 * nothing lists no commits, as GitLab does; `all` lists the history of every ref. History pages
 * carry no totals: a full page announces a next one.
 */
export async function listCommits(ctx: DomainContext, access: ProjectAccess, filters: CommitFilters, page: PageArgs): Promise<Page<CommitRecord>> {
  requireRepositoryEnabled(ctx, access);
  const { project } = access;
  const window = pageWindow(page);
  const repo = repositoryOf(ctx, project.id);
  const head = filters.all ? null : await resolveCommitSha(repo, filters.ref_name || project.defaultBranch);
  const shas = filters.all || head ? await repo.revList(historyArgs(filters, head, window.skip, window.take)) : [];
  const rows = await readCommits(ctx, project.id, shas);
  return { rows, info: { page: window.page, perPage: window.perPage, total: null, hasNext: rows.length === window.take, hasPrev: window.page > 1 } };
}

function historyArgs(filters: CommitFilters, head: string | null, skip: number, take: number): string[] {
  const args = [`--skip=${skip}`, `--max-count=${take}`];
  if (filters.since) args.push(`--since=${Math.floor(filters.since.getTime() / 1000)}`);
  if (filters.until) args.push(`--until=${Math.floor(filters.until.getTime() / 1000)}`);
  if (filters.author) args.push("--fixed-strings", `--author=${filters.author}`);
  if (filters.first_parent) args.push("--first-parent");
  if (filters.order === "topo") args.push("--topo-order");
  args.push(...(filters.all ? ["--branches", "--tags"] : ["--end-of-options", head!]));
  if (filters.path) args.push("--", `:(literal)${filters.path}`);
  return args;
}

/**
 * GET /projects/:id/repository/merge_base (lib/api/repositories.rb): the best common ancestor
 * of two or more refs (branch names, tags or shas).
 */
export async function mergeBase(ctx: DomainContext, { project }: ProjectAccess, refs: string[]): Promise<CommitRecord> {
  if (refs.length < 2) throw failed("Provide at least 2 refs");
  const repo = repositoryOf(ctx, project.id);
  const shas = await Promise.all(refs.map((ref) => resolveCommitSha(repo, ref)));
  const unknown = refs.filter((_ref, i) => !shas[i]);
  if (unknown.length) throw failed(`Could not find ${unknown.length === 1 ? "ref" : "refs"}: ${unknown.join(", ")}`);
  const base = await repo.mergeBase(shas as string[]);
  const commit = base ? await readCommit(ctx, project.id, base) : null;
  if (!commit) throw notFound("Merge Base");
  return commit;
}

/** A commit of a project, found with the access that let the caller find it. */
export interface FoundCommit {
  access: ProjectAccess;
  commit: CommitRecord;
}

/** GET .../commits/:sha: a sha, an abbreviated sha, a branch or a tag, in a repository the caller may read. */
export async function findCommit(ctx: DomainContext, id: string, sha: string): Promise<FoundCommit> {
  const access = await findRepositoryProject(ctx, id);
  const commit = await resolveCommit(ctx, access.project.id, sha);
  if (!commit) throw notFound("Commit");
  return { access, commit };
}

/** CommitDetail of a found commit. */
export function commitDetail(ctx: DomainContext, { access, commit }: FoundCommit, includeStats: boolean): Promise<CommitDetailView> {
  return withStats(repositoryOf(ctx, access.project.id), commit, includeStats);
}

/** GitLab's commit stats: lines added and deleted against the first parent. */
async function withStats(repo: GitRepository, commit: CommitRecord, includeStats: boolean): Promise<CommitDetailView> {
  return { ...commit, stats: includeStats ? await repo.numstat(commit.parentShas[0] ?? null, commit.sha) : null };
}

export interface CommitActionInput {
  action?: string | null;
  file_path?: string | null;
  previous_path?: string | null;
  content?: string | null;
  encoding?: string | null;
  execute_filemode?: boolean | null;
  last_commit_id?: string | null;
}

export interface CommitInput {
  branch: string;
  commit_message: string;
  actions: CommitActionInput[];
  start_branch?: string | null;
  start_sha?: string | null;
  author_name?: string | null;
  author_email?: string | null;
  stats?: boolean | null;
}

/** Grape's checks of each action (values, and the params each action requires). */
function actionParamErrors(actions: CommitActionInput[]): string[] {
  return actions.flatMap((action, i) => {
    const name = (field: string) => `actions[${i}][${field}]`;
    const errors: string[] = [];
    if (action.action == null) errors.push(`${name("action")} is missing`);
    else if (!(FILE_ACTIONS as readonly string[]).includes(action.action)) errors.push(`${name("action")} does not have a valid value`);
    if (action.file_path == null) errors.push(`${name("file_path")} is missing`);
    if (action.action === "move" && action.previous_path == null) errors.push(`${name("previous_path")} is missing`);
    if (action.action === "update" && action.content == null) errors.push(`${name("content")} is missing`);
    if (action.action === "chmod" && action.execute_filemode == null) errors.push(`${name("execute_filemode")} is missing`);
    if (action.encoding != null && !["text", "base64"].includes(action.encoding)) errors.push(`${name("encoding")} does not have a valid value`);
    return errors;
  });
}

const failed = (message: string) => new AppError(400, { message });

/** Where the new commit starts: its parent (null in an empty repository) and the branch's old head. */
interface Start {
  parent: CommitRecord | null;
  before: string;
}

/**
 * Commits::CreateService#validate!: the start branch (or start_sha) exists (in an empty
 * repository the first commit starts from nothing, on any branch); a new target branch is free
 * and valid. Read under the repository's lock, so it holds when the ref moves.
 */
async function startOf(ctx: DomainContext, projectId: number, input: CommitInput): Promise<Start> {
  const { branch } = input;
  const startBranch = input.start_branch || branch;
  const target = await branchNamed(ctx.db, projectId, branch);
  const before = target?.headSha ?? BLANK_SHA;
  if (input.start_sha) return { parent: await startCommitBySha(ctx, projectId, input.start_sha, branch, target), before };
  const start = await branchNamed(ctx.db, projectId, startBranch);
  if (!start && !(await ctx.db.branch.findFirst({ where: { projectId }, select: { id: true } }))) {
    if (!isValidBranchName(branch)) throw failed(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
    return { parent: null, before };
  }
  if (!start) throw failed("You can only create or edit files when you are on a branch");
  if (startBranch !== branch) requireNewBranch(branch, target);
  return { parent: await readCommit(ctx, projectId, start.headSha), before };
}

async function startCommitBySha(ctx: DomainContext, projectId: number, sha: string, branch: string, target: { headSha: string } | null): Promise<CommitRecord> {
  if (!/^[0-9a-f]{7,40}$/i.test(sha)) throw failed(`Invalid start_sha '${sha}'`);
  const commit = await resolveCommit(ctx, projectId, sha);
  if (!commit) throw failed(`Cannot find start_sha '${sha}'`);
  requireNewBranch(branch, target);
  return commit;
}

function requireNewBranch(branch: string, target: { headSha: string } | null): void {
  if (target) throw failed(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  if (!isValidBranchName(branch)) throw failed(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
  if (looksLikeSha(branch)) throw failed("You cannot create a branch with a 40-character hexadecimal branch name.");
}

/**
 * Files::MultiService#validate_file_status: an action naming the last commit the caller saw of
 * its file fails when a newer commit changed that file since.
 */
async function requireUnchangedFiles(repo: GitRepository, start: CommitRecord | null, actions: CommitActionInput[]): Promise<void> {
  if (!start) return;
  for (const action of actions) {
    if (!action.last_commit_id || action.action === "create") continue;
    // an id, never revision syntax (`:/text` would search every commit message)
    if (!/^[0-9a-f]{7,40}$/i.test(action.last_commit_id)) continue;
    const file = cleanPath(action.action === "move" ? (action.previous_path ?? "") : (action.file_path ?? ""));
    const [current, seen] = await Promise.all([repo.lastCommitForPath(start.sha, file), repo.commitShaOf(action.last_commit_id).then((sha) => sha && repo.lastCommitForPath(sha, file))]);
    if (current && seen && current !== seen) throw failed(`The file has changed since you started editing it: ${file}`);
  }
}

/** POST .../commits, before the project is looked up: signed in (401), then the params (400). */
export function checkCommitInput(ctx: DomainContext, input: CommitInput): void {
  requireAuthenticated(ctx);
  requireParams([...blankParamErrors({ branch: input.branch }), ...actionParamErrors(input.actions)]);
  if (input.start_branch && input.start_sha) throw failed("You can't pass both start_branch and start_sha");
}

/**
 * Commits::CreateService in a repository the caller may read (findRepositoryProject), after
 * checkCommitInput: a branch the caller may not push to is a 403 with its reason (GitLab's
 * GraphQL commitCreate finds the project with findRepositoryToPush first, a bare 403 for readers).
 */
export async function createCommit(ctx: DomainContext, access: ProjectAccess, input: CommitInput): Promise<CommitDetailView> {
  const user = ctx.actor!.user;
  if (!(await canPushToBranch(ctx, access, input.branch))) throw forbidden("You are not allowed to push into this branch");
  const projectId = access.project.id;
  const committer = signature(user, ctx.now());
  const author = signature({ name: input.author_name || user.name, email: input.author_email || user.email }, committer.date);
  const commit = await withRepository(ctx, projectId, async (repo) => {
    const start = await startOf(ctx, projectId, input);
    await requireUnchangedFiles(repo, start.parent, input.actions);
    const tree = await applyFileActions(repo, start.parent?.treeSha ?? null, input.actions as FileAction[]);
    const sha = await repo.writeCommit({ tree, parents: start.parent ? [start.parent.sha] : [], author, committer, message: input.commit_message });
    await moveRefs(ctx, projectId, [{ ref: `${BRANCH_PREFIX}${input.branch}`, oldSha: start.before, newSha: sha }], { actorId: user.id });
    return commitRecord(projectId, (await repo.commit(sha))!);
  });
  return withStats(repositoryOf(ctx, projectId), commit, input.stats ?? true);
}
