// Branches API (lib/api/branches.rb): list, show, create from a ref, delete. The rows are the
// database's copy of the repository's branches; heads and history are read from git.
import type { Db } from "../../db/client.js";
import type { Branch } from "../../generated/prisma/client.js";
import { AppError, notFound, paramError } from "../../errors.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, type Tx } from "../shared/events.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import {
  canDeleteBranch, canMergeToBranch, canPushToBranch, findRepositoryProject, findRepositoryToPush, requireRepositoryEnabled,
} from "./access.js";
import { readCommits, repositoryOf, resolveCommitSha, type CommitRecord } from "./git.js";
import { developersCan, projectProtections } from "./protection-rules.js";
import { BRANCH_PREFIX, moveRefs, withRepository } from "./ref-updates.js";
import { isValidBranchName, looksLikeSha, refMatches } from "./refs.js";

/** A branch as GitLab's Branch entity shows it to the caller. */
export interface BranchView {
  access: ProjectAccess;
  branch: Branch;
  commit: CommitRecord;
  merged: boolean;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  canPush: boolean;
  isDefault: boolean;
}

/** The branch row of that name, if any (no access check). */
export function branchNamed(db: Db | Tx, projectId: number, name: string): Promise<Branch | null> {
  return db.branch.findUnique({ where: { projectId_name: { projectId, name } } });
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const failed = (message: string) => new AppError(400, { message });

/** Grape's `allow_blank: false`: "x is empty" for each blank param, in declaration order. */
export function blankParamErrors(params: Record<string, string>): string[] {
  return Object.entries(params).filter(([, value]) => !value.trim()).map(([name]) => `${name} is empty`);
}

export function requireParams(problems: string[]): void {
  if (problems.length) throw paramError(problems.join(", "));
}

/** Entity views of branches, sharing one protections query and one `merged` question to git. */
async function branchViews(ctx: DomainContext, access: ProjectAccess, branches: Branch[]): Promise<BranchView[]> {
  const { project } = access;
  const defaultBranch = await branchNamed(ctx.db, project.id, project.defaultBranch);
  const [protections, merged, commits] = await Promise.all([
    projectProtections(ctx.db, project.id),
    mergedInto(ctx, project.id, defaultBranch, branches),
    readCommits(ctx, project.id, [...new Set(branches.map((b) => b.headSha))]),
  ]);
  const commitBySha = new Map(commits.map((commit) => [commit.sha, commit]));
  return Promise.all(
    branches.map(async (branch) => {
      const matching = protections.filter((rule) => refMatches(rule.name, branch.name));
      return {
        access,
        branch,
        commit: commitBySha.get(branch.headSha)!,
        merged: branch.headSha !== defaultBranch?.headSha && merged.has(branch.name),
        protected: matching.length > 0,
        developersCanPush: developersCan("push", matching),
        developersCanMerge: developersCan("merge", matching),
        canPush: await canPushToBranch(ctx, access, branch.name, matching),
        isDefault: branch.name === project.defaultBranch,
      };
    }),
  );
}

/** The names of the branches whose head the default branch's history holds (`git branch --merged`). */
async function mergedInto(ctx: DomainContext, projectId: number, defaultBranch: Branch | null, branches: Branch[]): Promise<Set<string>> {
  const candidates = branches.filter((b) => defaultBranch && b.headSha !== defaultBranch.headSha);
  if (!defaultBranch || !candidates.length) return new Set();
  const refs = await repositoryOf(ctx, projectId).refsMergedInto(defaultBranch.headSha, [BRANCH_PREFIX]);
  return new Set(refs.map((ref) => ref.slice(BRANCH_PREFIX.length)));
}

/** BranchesFinder's search: `^term` prefix, `term$` suffix, otherwise a substring; any case. */
function searchFilter(search: string | null | undefined): (name: string) => boolean {
  if (!search) return () => true;
  const term = search.toLowerCase();
  if (term.startsWith("^")) return (name) => name.toLowerCase().startsWith(term.slice(1));
  if (term.endsWith("$")) return (name) => name.toLowerCase().endsWith(term.slice(0, -1));
  return (name) => name.toLowerCase().includes(term);
}

export interface BranchFilters {
  search?: string | null;
}

/** GET /projects/:id/repository/branches: by name, in byte order. */
export async function listBranches(ctx: DomainContext, access: ProjectAccess, filters: BranchFilters, page: PageArgs): Promise<Page<BranchView>> {
  requireRepositoryEnabled(ctx, access);
  const matches = searchFilter(filters.search);
  const all = (await ctx.db.branch.findMany({ where: { projectId: access.project.id } }))
    .filter((branch) => matches(branch.name))
    .sort((a, b) => byteOrder(a.name, b.name));
  const listed = await paginateList(all, page);
  return { ...listed, rows: await branchViews(ctx, access, listed.rows) };
}

/** A branch of a project, found with the access that let the caller find it. */
export interface FoundBranch {
  access: ProjectAccess;
  branch: Branch;
}

/** find_branch!: 400 for a name git would refuse, 404 for a missing branch. */
async function branchOrFail(ctx: DomainContext, access: ProjectAccess, name: string): Promise<FoundBranch> {
  if (!isValidBranchName(name)) throw failed("The branch refname is invalid");
  const branch = await branchNamed(ctx.db, access.project.id, name);
  if (!branch) throw notFound("Branch");
  return { access, branch };
}

/** GET /projects/:id/repository/branches/:branch: a branch of a repository the caller may read. */
export async function findBranch(ctx: DomainContext, id: string, name: string): Promise<FoundBranch> {
  return branchOrFail(ctx, await findRepositoryProject(ctx, id), name);
}

/** DELETE .../branches/:branch: signed in (401), the project (404), push_code (403), then the branch. */
export async function findBranchToDelete(ctx: DomainContext, id: string, name: string): Promise<FoundBranch> {
  requireAuthenticated(ctx);
  return branchOrFail(ctx, await findRepositoryToPush(ctx, id), name);
}

/** What the Branch entity shows of a found branch. */
export async function branchView(ctx: DomainContext, { access, branch }: FoundBranch): Promise<BranchView> {
  return (await branchViews(ctx, access, [branch]))[0]!;
}

/** POST .../branches, before the project is looked up: signed in (401), then Grape's params (400). */
export function checkBranchCreation(ctx: DomainContext, name: string, ref: string): void {
  requireAuthenticated(ctx);
  requireParams(blankParamErrors({ branch: name, ref }));
}

/**
 * Branches::CreateService and the pre-receive checks of a branch creation, in a repository the
 * caller may push to (findRepositoryToPush), after checkBranchCreation.
 */
export async function createBranch(ctx: DomainContext, access: ProjectAccess, name: string, ref: string): Promise<BranchView> {
  const projectId = access.project.id;
  if (!isValidBranchName(name)) throw failed("Branch name is invalid");
  if (await branchNamed(ctx.db, projectId, name)) throw failed("Branch already exists");
  const start = await resolveCommitSha(repositoryOf(ctx, projectId), ref);
  if (!start) throw failed(`Failed to create branch '${name}': invalid reference name '${ref}'`);
  if (looksLikeSha(name)) throw failed("You cannot create a branch with a 40-character hexadecimal branch name.");
  await requireMayCreate(ctx, access, name);
  await withRepository(ctx, projectId, async () => {
    if (await branchNamed(ctx.db, projectId, name)) throw failed("Branch already exists");
    await moveRefs(ctx, projectId, [{ ref: `${BRANCH_PREFIX}${name}`, oldSha: BLANK_SHA, newSha: start }], { actorId: ctx.actor!.user.id });
  });
  const branch = (await branchNamed(ctx.db, projectId, name))!;
  return (await branchViews(ctx, access, [branch]))[0]!;
}

/** A protected branch may be created by whoever may push or merge to it. */
async function requireMayCreate(ctx: DomainContext, access: ProjectAccess, name: string): Promise<void> {
  if (await canPushToBranch(ctx, access, name)) return;
  if (await canMergeToBranch(ctx, access, name)) return;
  throw failed("You are not allowed to create protected branches on this project.");
}

/** Deletes a branch found by findBranchToDelete. */
export async function deleteBranch(ctx: DomainContext, { access, branch }: FoundBranch, unmodifiedSince?: string | null): Promise<boolean> {
  const { name } = branch;
  const [head] = await readCommits(ctx, access.project.id, [branch.headSha]);
  if (head) assertUnmodifiedSince(head.authoredAt, unmodifiedSince);
  if (name === access.project.defaultBranch) throw failed("The default branch of a project cannot be deleted.");
  if (!(await canDeleteBranch(ctx, access, name))) {
    throw failed("You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.");
  }
  await withRepository(ctx, access.project.id, async () => {
    const current = await branchNamed(ctx.db, access.project.id, name);
    if (!current) throw notFound("Branch");
    await moveRefs(ctx, access.project.id, [{ ref: `${BRANCH_PREFIX}${name}`, oldSha: current.headSha, newSha: BLANK_SHA }], {
      actorId: ctx.actor!.user.id,
    });
  });
  return true;
}
