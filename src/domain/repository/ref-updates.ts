// The one path by which a repository's branches and tags change, for pushes over HTTP and for
// the API's writes alike (GitLab: Gitaly's update-ref with hooks, then PostReceive). Under the
// repository's lock:
//   1. a PendingRefUpdate row says that refs are about to move (and who moves them);
//   2. git moves the refs, compare-and-swap (a push: receive-pack moved them already);
//   3. one transaction brings the branch and tag rows in step with the refs, publishes a push or
//      tag push event per moved ref (merge requests, approvals and webhooks react to those), sets
//      the default branch on the first push into an empty repository, and deletes the row of 1.
// A crash between 2 and 3 leaves the row of 1 behind; reconcile.ts repeats 3 for that repository.
import { AppError } from "../../errors.js";
import { changedFilesOfCommits, type FileChange } from "../../git/changed-files.js";
import { withRepositoryLock } from "../../git/locks.js";
import { NULL_SHA, type CommitObject } from "../../git/objects.js";
import { StaleRefError, type Ref, type RefUpdate } from "../../git/repository.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, publish, type PushedCommit, type PushedCommits, type PushedCount, type PushEvent, type RefGroup, type Tx } from "../shared/events.js";
import { commitFacts, repositoryOf, type GitRepository } from "./git.js";

export const BRANCH_PREFIX = "refs/heads/";
export const TAG_PREFIX = "refs/tags/";

/** GitLab's push_event_hooks_limit: a push moving more refs than this sends no push hooks. */
export const PUSH_EVENT_HOOKS_LIMIT = 3;
/** Commits a push event describes (the newest), as GitLab's push payloads do. */
export const PUSH_COMMITS_LIMIT = 20;

export interface RecordOptions {
  /** who moved the refs (null: nobody known, e.g. a repaired crash) */
  actorId: number | null;
  /**
   * More work in the transaction that records the move, before its push events are published (a
   * merge marks its merge request merged first, as GitLab's merge does before the push is
   * processed).
   */
  inTransaction?: (tx: Tx) => Promise<void>;
}

/** Gitaly's answer when a ref moved under the caller's feet. */
export const staleReference = (ref: string) =>
  new AppError(400, { message: `Could not update ${ref}. Please refresh and try again.` });

/** Runs `work` holding the repository's lock (one writer per repository, across processes). */
export function withRepository<T>(ctx: DomainContext, projectId: number, work: (repo: GitRepository) => Promise<T>): Promise<T> {
  return withRepositoryLock(ctx.repositoryLocks, projectId, () => work(repositoryOf(ctx, projectId)));
}

/** Step 1: refs of this repository are about to move. */
export async function beginRefUpdate(ctx: DomainContext, projectId: number, actorId: number | null): Promise<void> {
  await ctx.db.pendingRefUpdate.create({ data: { projectId, actorId } });
}

/**
 * Steps 1 to 3 for the API's writes, with the lock held by the caller (withRepository): the
 * updates move together or not at all; a ref that moved since the caller read it is a 400.
 */
export async function moveRefs(ctx: DomainContext, projectId: number, updates: RefUpdate[], options: RecordOptions): Promise<void> {
  await beginRefUpdate(ctx, projectId, options.actorId);
  const repo = repositoryOf(ctx, projectId);
  try {
    await repo.updateRefs(updates);
    repo.noteWrite();
  } catch (error) {
    await ctx.db.pendingRefUpdate.deleteMany({ where: { projectId } });
    if (error instanceof StaleRefError) throw staleReference(updates[0]!.ref);
    throw error;
  }
  await recordRefs(ctx, projectId, updates.map((u) => u.ref), options, new Map(updates.map((u) => [u.ref, u.newSha])));
}

/** A branch or tag as its row and as the repository show it. */
interface RefState {
  name: string;
  /** the row's value (BLANK_SHA: no row) */
  before: string;
  /** the repository's value (BLANK_SHA: no such ref) */
  after: string;
  /** the commit a tag points at */
  peeled: string | null;
}

/**
 * Step 3: the rows of the named refs (all branches and tags when null) made equal to the
 * repository's, with an event for each difference. The caller holds the repository's lock; when it
 * knows where the refs are now (it just moved them), `known` spares asking git.
 */
export async function recordRefs(
  ctx: DomainContext, projectId: number, refNames: string[] | null, options: RecordOptions, known?: ReadonlyMap<string, string>,
): Promise<void> {
  const repo = repositoryOf(ctx, projectId);
  const states = await refStates(ctx, repo, projectId, refNames, known);
  if (!states.length && !options.inTransaction) {
    await ctx.db.pendingRefUpdate.deleteMany({ where: { projectId } });
    return;
  }
  const branches = states.filter((s) => s.name.startsWith(BRANCH_PREFIX));
  const tags = states.filter((s) => s.name.startsWith(TAG_PREFIX));
  const withHooks = hooksAllowed(states);
  const groupOf = refGroups(states);
  const project = await ctx.db.project.findUniqueOrThrow({ where: { id: projectId }, select: { defaultBranch: true } });
  const existingBranches = await ctx.db.branch.findMany({ where: { projectId }, select: { name: true, headSha: true } });
  // where the default branch is after this update (GitLab reads it once the refs have moved)
  const movedDefault = branches.find((s) => s.name === `${BRANCH_PREFIX}${project.defaultBranch}`);
  const defaultHead = movedDefault
    ? (movedDefault.after === BLANK_SHA ? null : movedDefault.after)
    : existingBranches.find((b) => b.name === project.defaultBranch)?.headSha ?? null;
  const pushes = branches.map((state) => branchPush(repo, state, project.defaultBranch, defaultHead));
  const tagPushes = await Promise.all(tags.map((state) => tagPush(repo, state)));
  const newDefault = await ctx.db.$transaction(async (tx) => {
    await writeBranchRows(tx, projectId, branches);
    await writeTagRows(tx, repo, projectId, tags);
    const chosen = await chooseDefaultBranch(tx, projectId, branches, existingBranches.length);
    await tx.pendingRefUpdate.deleteMany({ where: { projectId } });
    await options.inTransaction?.(tx);
    for (const [i, push] of pushes.entries()) {
      await publish(tx, ctx, "push", { projectId, ...push, actorId: options.actorId, withHooks: withHooks(branches[i]!), group: groupOf(branches[i]!) });
    }
    for (const [i, push] of tagPushes.entries()) {
      await publish(tx, ctx, "tag_push", { projectId, ...push, actorId: options.actorId, withHooks: withHooks(tags[i]!), group: groupOf(tags[i]!) });
    }
    return chosen;
  });
  if (newDefault) await repo.setHead(newDefault);
}

/**
 * GitLab's push_event_hooks_limit, counted per kind of ref (branch, tag) and per action (created,
 * updated, removed): a group larger than the limit sends no hooks; everything else still happens.
 */
function hooksAllowed(states: RefState[]): (state: RefState) => boolean {
  const groupOf = refGroups(states);
  return (state) => groupOf(state).size <= PUSH_EVENT_HOOKS_LIMIT;
}

/** Each ref's group in the push: the refs of its kind (branch, tag) and action (created, updated, removed). */
function refGroups(states: RefState[]): (state: RefState) => RefGroup {
  const keyOf = (s: RefState) => `${s.name.startsWith(BRANCH_PREFIX) ? "branch" : "tag"}:${s.before === BLANK_SHA ? "created" : s.after === BLANK_SHA ? "removed" : "pushed"}`;
  const sizes = new Map<string, number>();
  const firsts = new Map<string, RefState>();
  for (const state of states) {
    sizes.set(keyOf(state), (sizes.get(keyOf(state)) ?? 0) + 1);
    if (!firsts.has(keyOf(state))) firsts.set(keyOf(state), state);
  }
  return (state) => ({ size: sizes.get(keyOf(state))!, first: firsts.get(keyOf(state)) === state });
}

async function refStates(
  ctx: DomainContext, repo: GitRepository, projectId: number, refNames: string[] | null, known?: ReadonlyMap<string, string>,
): Promise<RefState[]> {
  const wanted = refNames && new Set(refNames.filter((name) => name.startsWith(BRANCH_PREFIX) || name.startsWith(TAG_PREFIX)));
  if (wanted && !wanted.size) return [];
  const branchNames = wanted ? [...wanted].filter((n) => n.startsWith(BRANCH_PREFIX)).map((n) => n.slice(BRANCH_PREFIX.length)) : undefined;
  const tagNames = wanted ? [...wanted].filter((n) => n.startsWith(TAG_PREFIX)).map((n) => n.slice(TAG_PREFIX.length)) : undefined;
  const [refs, branchRows, tagRows] = await Promise.all([
    wanted && known ? knownRefs(repo, [...wanted], known) : repo.refs(wanted ? [...wanted] : undefined),
    branchNames?.length === 0 ? [] : ctx.db.branch.findMany({ where: { projectId, ...(branchNames ? { name: { in: branchNames } } : {}) } }),
    tagNames?.length === 0 ? [] : ctx.db.tag.findMany({ where: { projectId, ...(tagNames ? { name: { in: tagNames } } : {}) } }),
  ]);
  const rows = new Map<string, string>([
    ...branchRows.map((b) => [`${BRANCH_PREFIX}${b.name}`, b.headSha] as const),
    ...tagRows.map((t) => [`${TAG_PREFIX}${t.name}`, t.objectSha ?? t.targetSha] as const),
  ]);
  const inRepo = new Map<string, Ref>(refs.filter((ref) => !wanted || wanted.has(ref.name)).map((ref) => [ref.name, ref]));
  // in the order the refs were named (a push's order), else by name
  const names = wanted ? [...wanted] : [...new Set([...rows.keys(), ...inRepo.keys()])].sort();
  return names
    .map((name) => ({ name, before: rows.get(name) ?? BLANK_SHA, after: inRepo.get(name)?.sha ?? BLANK_SHA, peeled: inRepo.get(name)?.peeled ?? null }))
    .filter((state) => state.before !== state.after);
}

/** The refs where the caller just put them; a tag object peeled to its commit (one cat-file read). */
async function knownRefs(repo: GitRepository, names: string[], known: ReadonlyMap<string, string>): Promise<Ref[]> {
  const refs = names.filter((name) => known.has(name) && known.get(name) !== BLANK_SHA).map((name) => ({ name, sha: known.get(name)! }));
  return Promise.all(refs.map(async (ref) => {
    const annotated = ref.name.startsWith(TAG_PREFIX) && (await repo.info(ref.sha))?.type === "tag";
    return { ...ref, peeled: annotated ? await repo.commitShaOf(ref.sha) : null };
  }));
}

/** `read` run once, when first asked. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= read());
}

type BranchPush = Pick<PushEvent, "branch" | "before" | "after" | "pushed" | "counted" | "changedPaths">;

/** Past this many, the commits of a push are counted by git rather than listed. */
const LISTED_COMMITS = 10_000;

/**
 * What a branch push brought (Git::BranchHooksService), read from git when a subscriber asks: an
 * updated (or forced) branch, the commits between its old and new heads; the default branch
 * created, its whole history; another branch created, its commits the default branch lacks; a
 * deleted one, none. The push event needs only the count and the newest message; the file changes
 * of the listed commits are read for push hooks alone.
 */
function branchPush(repo: GitRepository, state: RefState, defaultBranch: string, defaultHead: string | null): BranchPush {
  const branch = state.name.slice(BRANCH_PREFIX.length);
  const base = { branch, before: state.before, after: state.after };
  if (state.after === BLANK_SHA) {
    return { ...base, pushed: async () => ({ commits: [], total: 0 }), counted: async () => ({ total: 0, newestMessage: null }), changedPaths: async () => [] };
  }
  const range =
    state.before !== BLANK_SHA ? [state.after, `^${state.before}`]
      : branch === defaultBranch || !defaultHead ? [state.after]
        : [state.after, `^${defaultHead}`];
  const listed = once(async () => {
    const shas = await newCommitShas(repo, state, range, branch !== defaultBranch ? defaultHead : null);
    const total = shas.length > LISTED_COMMITS ? Number((await repo.revList(["--count", ...range]))[0]) : shas.length;
    return { shas, total };
  });
  const counted = once(async (): Promise<PushedCount> => {
    const { shas, total } = await listed();
    return { total, newestMessage: shas.length ? (await repo.commit(shas[0]!))?.message ?? null : null };
  });
  const pushed = once(async (): Promise<PushedCommits> => {
    const { shas, total } = await listed();
    return { commits: await pushedCommits(repo, await repo.commits(shas.slice(0, PUSH_COMMITS_LIMIT).reverse())), total };
  });
  return { ...base, pushed, counted, changedPaths: () => pathsChangedIn(repo, range) };
}

/** `git rev-list <range>` (newest first), without a process for the usual one-commit push or a branch made at the default head. */
async function newCommitShas(repo: GitRepository, state: RefState, range: string[], defaultHead: string | null): Promise<string[]> {
  if (state.before === BLANK_SHA && state.after === defaultHead) return [];
  if (state.before !== BLANK_SHA) {
    const commit = await repo.commit(state.after);
    if (commit?.parents.length === 1 && commit.parents[0] === state.before) return [state.after];
  }
  return repo.revList([`--max-count=${LISTED_COMMITS + 1}`, ...range]);
}

async function pathsChangedIn(repo: GitRepository, range: string[]): Promise<string[]> {
  const shas = await repo.revList(range);
  const changes = await changedFilesOfCommits(repo.gitDir, await repo.commits(shas));
  return [...new Set([...changes.values()].flat().flatMap((change) => [change.path, ...(change.fromPath ? [change.fromPath] : [])]))];
}

/** GitLab's Commit#repo_changes: added (new and renamed files), modified, removed paths. */
function repoChanges(changes: FileChange[]): Pick<PushedCommit, "added" | "modified" | "removed"> {
  const result = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
  for (const change of changes) {
    if (change.status === "D") result.removed.push(change.path);
    else if (change.status === "A" || change.status === "R" || change.status === "C") result.added.push(change.path);
    else result.modified.push(change.path);
  }
  return result;
}

export async function pushedCommits(repo: GitRepository, commits: CommitObject[]): Promise<PushedCommit[]> {
  const changes = await changedFilesOfCommits(repo.gitDir, commits);
  return commits.map((commit) => ({ ...commitFacts(commit), ...repoChanges(changes.get(commit.sha) ?? []) }));
}

type TagPush = { tag: string; before: string; after: string; commit: () => Promise<PushedCommit | null>; message: string | null };

async function tagPush(repo: GitRepository, state: RefState): Promise<TagPush> {
  const tag = state.name.slice(TAG_PREFIX.length);
  if (state.after === BLANK_SHA) return { tag, before: state.before, after: state.after, commit: async () => null, message: null };
  const annotated = state.peeled ? await repo.tag(state.after) : null;
  const commit = once(async () => {
    const found = await repo.commit(state.peeled ?? state.after);
    return found ? (await pushedCommits(repo, [found]))[0]! : null;
  });
  return { tag, before: state.before, after: state.after, commit, message: annotated ? chomp(annotated.message) : null };
}

/** A tag's message as GitLab shows it: without the newline git ends it with. */
const chomp = (message: string) => message.replace(/\r?\n$/, "");

async function writeBranchRows(tx: Tx, projectId: number, states: RefState[]): Promise<void> {
  for (const state of states) {
    const name = state.name.slice(BRANCH_PREFIX.length);
    if (state.after === BLANK_SHA) await tx.branch.deleteMany({ where: { projectId, name } });
    else await tx.branch.upsert({ where: { projectId_name: { projectId, name } }, create: { projectId, name, headSha: state.after }, update: { headSha: state.after } });
  }
}

async function writeTagRows(tx: Tx, repo: GitRepository, projectId: number, states: RefState[]): Promise<void> {
  for (const state of states) {
    const name = state.name.slice(TAG_PREFIX.length);
    if (state.after === BLANK_SHA) {
      await tx.tag.deleteMany({ where: { projectId, name } });
      continue;
    }
    const annotated = state.peeled ? await repo.tag(state.after) : null;
    const data = {
      targetSha: state.peeled ?? state.after,
      objectSha: annotated ? state.after : null,
      message: annotated ? chomp(annotated.message) : null,
      taggerName: annotated?.tagger?.name ?? null,
      taggerEmail: annotated?.tagger?.email ?? null,
      ...(annotated?.tagger ? { createdAt: annotated.tagger.date } : {}),
    };
    await tx.tag.upsert({ where: { projectId_name: { projectId, name } }, create: { projectId, name, ...data }, update: data });
  }
}

/**
 * The first push into an empty repository: when the project's default branch does not exist, the
 * pushed branch becomes it (the default name if pushed, else the first pushed). Returns the new
 * default branch, for HEAD.
 */
async function chooseDefaultBranch(tx: Tx, projectId: number, states: RefState[], branchesBefore: number): Promise<string | null> {
  const created = states.filter((s) => s.before === BLANK_SHA && s.after !== BLANK_SHA).map((s) => s.name.slice(BRANCH_PREFIX.length));
  if (branchesBefore > 0 || !created.length) return null;
  const project = await tx.project.findUnique({ where: { id: projectId }, select: { defaultBranch: true } });
  if (!project || created.includes(project.defaultBranch)) return null;
  await tx.project.update({ where: { id: projectId }, data: { defaultBranch: created[0]! } });
  return created[0]!;
}

export { NULL_SHA };
