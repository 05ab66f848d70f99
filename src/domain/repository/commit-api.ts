// Commits API (lib/api/commits.rb): history of a ref, one commit, and a commit of file actions
// (Files::MultiService / Commits::CreateService) that advances or creates a branch.
import type { Commit } from "../../generated/prisma/client.js";
import { AppError, forbidden, notFound } from "../../errors.js";
import { requireAuthenticated, type ProjectAccess } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, type Tx } from "../shared/events.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { canPushToBranch, findRepositoryProject, requirePushCode, requireRepositoryEnabled } from "./access.js";
import { blankParamErrors, requireParams } from "./branches.js";
import { commitsBySha, historyOfAll, historyOrder, mergeBase, resolveCommit, treeOf, writeCommit } from "./commits.js";
import { lockBranches, pushBranch } from "./push.js";
import { isValidBranchName, looksLikeSha } from "./refs.js";
import { applyActions, FILE_ACTIONS, type FileAction } from "./tree.js";

/** A commit as GitLab's CommitDetail shows it: with stats unless the caller asked without. */
export type CommitDetailView = Commit & { includeStats: boolean };

export interface CommitFilters {
  ref_name?: string | null;
  all?: boolean | null;
}

/**
 * GET /projects/:id/repository/commits. A ref that names nothing lists no commits, as GitLab does;
 * `all` lists every commit of every branch and tag (ref_name is then ignored). History pages carry
 * no totals.
 */
export async function listCommits(ctx: DomainContext, access: ProjectAccess, filters: CommitFilters, page: PageArgs): Promise<Page<Commit>> {
  requireRepositoryEnabled(ctx, access);
  const { project } = access;
  const shas = filters.all ? await historyOfAll(ctx.db, project.id, await refHeads(ctx, project.id)) : await refHistory(ctx, project, filters.ref_name);
  const listed = await paginateList(shas, page);
  return { rows: await commitsBySha(ctx.db, project.id, listed.rows), info: { ...listed.info, total: null } };
}

async function refHistory(ctx: DomainContext, project: { id: number; defaultBranch: string | null }, ref: string | null | undefined): Promise<string[]> {
  const name = ref || project.defaultBranch;
  const head = name ? await resolveCommit(ctx.db, project.id, name) : null;
  return head ? historyOrder(ctx.db, project.id, head.sha) : [];
}

/** The commits every branch and tag points at. */
async function refHeads(ctx: DomainContext, projectId: number): Promise<string[]> {
  const [branches, tags] = await Promise.all([
    ctx.db.branch.findMany({ where: { projectId }, select: { headSha: true } }),
    ctx.db.tag.findMany({ where: { projectId }, select: { targetSha: true } }),
  ]);
  return [...branches.map((b) => b.headSha), ...tags.map((t) => t.targetSha)];
}

/**
 * GET /projects/:id/repository/merge_base (lib/api/repositories.rb): the best common ancestor
 * of two or more refs (branch names, tags or shas).
 */
export async function getMergeBase(ctx: DomainContext, id: string, refs: string[]): Promise<Commit> {
  const { project } = await findRepositoryProject(ctx, id);
  if (refs.length < 2) throw failed("Provide at least 2 refs");
  const commits = await Promise.all(refs.map((ref) => resolveRef(ctx, project.id, ref)));
  const unknown = refs.filter((_ref, i) => !commits[i]);
  if (unknown.length) throw failed(`Could not find ${unknown.length === 1 ? "ref" : "refs"}: ${unknown.join(", ")}`);
  const base = await mergeBase(ctx.db, project.id, commits.map((c) => c!.sha));
  const commit = base ? await resolveCommit(ctx.db, project.id, base) : null;
  if (!commit) throw notFound("Merge Base");
  return commit;
}

/** A branch, a tag or a sha. */
async function resolveRef(ctx: DomainContext, projectId: number, ref: string): Promise<Commit | null> {
  const tag = await ctx.db.tag.findUnique({ where: { projectId_name: { projectId, name: ref } }, select: { targetSha: true } });
  return resolveCommit(ctx.db, projectId, tag?.targetSha ?? ref);
}

/** GET .../commits/:sha: a sha, an abbreviated sha or a branch name. */
export async function getCommit(ctx: DomainContext, id: string, sha: string, includeStats: boolean): Promise<CommitDetailView> {
  const { project } = await findRepositoryProject(ctx, id);
  const commit = await resolveCommit(ctx.db, project.id, sha);
  if (!commit) throw notFound("Commit");
  return { ...commit, includeStats };
}

export interface CommitActionInput {
  action?: string | null;
  file_path?: string | null;
  previous_path?: string | null;
  content?: string | null;
  encoding?: string | null;
  execute_filemode?: boolean | null;
}

export interface CommitInput {
  branch: string;
  commit_message: string;
  actions: CommitActionInput[];
  start_branch?: string | null;
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

/**
 * Commits::CreateService#validate!: the start branch exists (in an empty repository the first
 * commit starts from nothing, on any branch); a new target branch is free and valid.
 */
async function startCommit(tx: Tx, projectId: number, branch: string, startBranch: string): Promise<{ start: Commit | null; before: string }> {
  const target = await tx.branch.findUnique({ where: { projectId_name: { projectId, name: branch } } });
  const start = await tx.branch.findUnique({ where: { projectId_name: { projectId, name: startBranch } } });
  if (!start && !(await tx.branch.findFirst({ where: { projectId }, select: { id: true } }))) {
    if (!isValidBranchName(branch)) throw failed(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
    return { start: null, before: BLANK_SHA };
  }
  if (!start) throw failed("You can only create or edit files when you are on a branch");
  if (startBranch !== branch) {
    if (target) throw failed(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
    if (!isValidBranchName(branch)) throw failed(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
    if (looksLikeSha(branch)) throw failed("You cannot create a branch with a 40-character hexadecimal branch name.");
  }
  const commit = (await resolveCommit(tx, projectId, start.headSha))!;
  return { start: commit, before: target?.headSha ?? BLANK_SHA };
}

/**
 * GitLab's GraphQL commitCreate: push_code on the project first (a bare 403 for readers), then
 * createCommit, whose protected-branch refusal carries its reason.
 */
export async function createCommitAsPusher(ctx: DomainContext, id: string, input: CommitInput): Promise<CommitDetailView> {
  requirePushCode(ctx, await findRepositoryProject(ctx, id));
  return createCommit(ctx, id, input);
}

export async function createCommit(ctx: DomainContext, id: string, input: CommitInput): Promise<CommitDetailView> {
  const user = requireAuthenticated(ctx).user;
  requireParams([...blankParamErrors({ branch: input.branch }), ...actionParamErrors(input.actions)]);
  const access = await findRepositoryProject(ctx, id);
  if (!(await canPushToBranch(ctx, access, input.branch))) throw forbidden("You are not allowed to push into this branch");
  const committer = { name: user.name, email: user.email };
  // read, check and write in one transaction, so that concurrent commits to a branch queue up
  const commit = await ctx.db.$transaction(async (tx) => {
    await lockBranches(tx, ctx, access.project.id, [input.branch, input.start_branch || input.branch]);
    const { start, before } = await startCommit(tx, access.project.id, input.branch, input.start_branch || input.branch);
    const change = applyActions(start ? treeOf(start) : [], input.actions as FileAction[]);
    const created = await writeCommit(tx, {
      projectId: access.project.id,
      parentSha: start?.sha ?? null,
      message: input.commit_message,
      author: { name: input.author_name || committer.name, email: input.author_email || committer.email },
      committer,
      at: ctx.now(),
      change,
    });
    await pushBranch(tx, ctx, { projectId: access.project.id, branch: input.branch, before, after: created.sha, commitShas: [created.sha] });
    return created;
  });
  return { ...commit, includeStats: input.stats ?? true };
}
