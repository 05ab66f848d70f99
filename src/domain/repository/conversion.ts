// Converts a database from before real git, once, at start. Each project's simulated history
// (Commit rows: messages, people, dates, parents and the paths of each tree, no contents) is written
// into a fresh bare repository by one `git fast-import`, with the branches and tags the rows name;
// then one transaction rewrites the rows that name commits (branches, tags, merge requests) to the
// new ids and deletes the Commit rows. Under the repository's lock, so servers starting together
// convert a project once. Until that transaction commits the rows are as they were: a crash leaves
// a repository that the next start throws away and writes again. Nothing is published: nothing
// was pushed. Projects that had no history get an empty repository; once a pass found every project
// with one, a marker in the repositories folder spares later starts that pass (one query remains).
import { existsSync } from "node:fs";
import { once } from "node:events";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Prisma } from "../../generated/prisma/client.js";
import { GitCommandError, spawnGit } from "../../git/command.js";
import { withRepositoryLock } from "../../git/locks.js";
import { formatSignature } from "../../git/objects.js";
import type { Services } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { BRANCH_PREFIX, TAG_PREFIX } from "./ref-updates.js";

export type ConversionLog = (message: string, error?: unknown) => void;

export interface ConversionSummary {
  /** projects whose history was written into git */
  converted: number;
  commits: number;
  /** projects without history that got an empty repository */
  created: number;
  /** projects left as they were, tried again at the next start */
  failed: number;
}

type ProjectRef = { id: number; defaultBranch: string };

interface ImportedHistory {
  commits: number;
  /** legacy commit id → git commit id */
  commitShas: Map<string, string>;
  /** annotated tag name → its tag object's id */
  tagObjects: Map<string, string>;
  /** what could not be carried over (a ref or parent naming no recorded commit) */
  notes: string[];
}

const PROJECTS_PER_READ = 100;
const COMMITS_PER_READ = 500;
/** The rewrite of a big project's rows may take a while; it runs before the server serves. */
const TRANSACTION_TIMEOUT_MS = 10 * 60_000;
/** Written in the repositories folder once every project without history has a repository. */
const CHECKED_MARKER = ".legacy-repositories-checked";
/** The ref fast-import builds commits on (deleted at the end of the stream). */
const SCRATCH_REF = "refs/forgeline/conversion";
const MARKS_FILE = "conversion-marks";
/** Every legacy file is this one empty blob: the contents were never kept. */
const EMPTY_BLOB_MARK = 1;

/** Every project still holding legacy rows converted; one query when there is nothing to do. */
export async function convertLegacyRepositories(services: Services, log: ConversionLog): Promise<ConversionSummary> {
  const summary: ConversionSummary = { converted: 0, commits: 0, created: 0, failed: 0 };
  const marker = path.join(services.git.root, CHECKED_MARKER);
  const legacyLeft = (await services.db.commit.findFirst({ select: { id: true } })) !== null;
  if (!legacyLeft && existsSync(marker)) return summary;
  if (legacyLeft) await convertHistories(services, log, summary);
  if (await createMissingRepositories(services, log, summary)) await writeMarker(marker);
  if (summary.converted || summary.created || summary.failed) log(summaryLine(summary));
  return summary;
}

function summaryLine({ converted, commits, created, failed }: ConversionSummary): string {
  const failures = failed ? `; ${failed} projects failed and are tried again at the next start` : "";
  return `Legacy repositories: ${converted} converted into git (${commits} commits), ${created} empty repositories created${failures}`;
}

async function writeMarker(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "Every project had a git repository when Forgeline last looked (src/domain/repository/conversion.ts).\n");
}

async function* projectsWhere(services: Services, where: Prisma.ProjectWhereInput): AsyncGenerator<ProjectRef> {
  let lastId = 0;
  for (;;) {
    const batch = await services.db.project.findMany({
      where: { ...where, id: { gt: lastId } }, orderBy: { id: "asc" }, take: PROJECTS_PER_READ, select: { id: true, defaultBranch: true },
    });
    yield* batch;
    if (batch.length < PROJECTS_PER_READ) return;
    lastId = batch.at(-1)!.id;
  }
}

const hasLegacyCommits = async (services: Services, projectId: number) =>
  (await services.db.commit.findFirst({ where: { projectId }, select: { id: true } })) !== null;

async function convertHistories(services: Services, log: ConversionLog, summary: ConversionSummary): Promise<void> {
  for await (const project of projectsWhere(services, { commits: { some: {} } })) {
    try {
      const history = await convertProject(services, project);
      if (!history) continue;
      summary.converted++;
      summary.commits += history.commits;
      const notes = history.notes.length ? ` (${history.notes.join("; ")})` : "";
      log(`Converted the repository of project ${project.id} into git: ${history.commits} commits${notes}`);
    } catch (error) {
      summary.failed++;
      log(`The repository of project ${project.id} could not be converted into git; the next start tries again`, error);
    }
  }
}

/** The project's history written into git and its rows rewritten; null when another process did it. */
function convertProject(services: Services, project: ProjectRef): Promise<ImportedHistory | null> {
  return withRepositoryLock(services.repositoryLocks, project.id, async () => {
    if (!(await hasLegacyCommits(services, project.id))) return null;
    try {
      const history = await writeHistory(services, project);
      const rewritten = await rewriteRows(services, project.id, history);
      if (!rewritten) await services.git.remove(project.id); // the project was deleted meanwhile
      return history;
    } catch (error) {
      // no half-written repository for the comparison of refs with rows (reconcile.ts) to act on;
      // when in doubt whether the rows were rewritten, the repository is kept
      if (await hasLegacyCommits(services, project.id).catch(() => false)) await services.git.remove(project.id);
      throw error;
    }
  });
}

// --- the repository

async function writeHistory(services: Services, project: ProjectRef): Promise<ImportedHistory> {
  await services.git.remove(project.id);
  const { gitDir } = await services.git.create(project.id, project.defaultBranch); // HEAD names the default branch
  const marksFile = path.join(gitDir, MARKS_FILE);
  const importer = startFastImport(gitDir, marksFile);
  const marks = new Marks();
  const notes: string[] = [];
  let commits = 0;
  try {
    await importer.write(`blob\nmark :${EMPTY_BLOB_MARK}\ndata 0\n\n`);
    for await (const row of legacyCommits(services, project.id)) {
      await importer.write(commitCommand(row, marks, notes));
      commits++;
    }
    await importer.write(await refCommands(services, project.id, marks, notes));
    await importer.finish(`reset ${SCRATCH_REF}\n\ndone\n`);
  } catch (error) {
    importer.kill();
    throw error;
  }
  const written = parseMarks(await readFile(marksFile, "utf8"));
  await rm(marksFile);
  return { commits, ...marks.resolve(written), notes };
}

/** fast-import's marks: a number for each object written, resolved to ids once it has finished. */
class Marks {
  private next = EMPTY_BLOB_MARK + 1;
  private readonly commits = new Map<string, number>();
  private readonly tags = new Map<string, number>();

  addCommit(legacySha: string): number {
    this.commits.set(legacySha, this.next);
    return this.next++;
  }

  addTag(name: string): number {
    this.tags.set(name, this.next);
    return this.next++;
  }

  ofCommit(legacySha: string | null): number | undefined {
    return legacySha === null ? undefined : this.commits.get(legacySha);
  }

  resolve(written: Map<number, string>): Pick<ImportedHistory, "commitShas" | "tagObjects"> {
    const resolved = (marks: Map<string, number>) => new Map([...marks].map(([key, mark]) => [key, written.get(mark)!]));
    return { commitShas: resolved(this.commits), tagObjects: resolved(this.tags) };
  }
}

function parseMarks(text: string): Map<number, string> {
  const marks = new Map<number, string>();
  for (const line of text.split("\n")) {
    const [mark, sha] = line.split(" ");
    if (mark && sha) marks.set(Number(mark.slice(1)), sha);
  }
  return marks;
}

const LEGACY_COMMIT_FIELDS = {
  id: true, sha: true, parentSha: true, secondParentSha: true, message: true, authorName: true, authorEmail: true, authoredAt: true,
  committerName: true, committerEmail: true, treePaths: true,
} satisfies Prisma.CommitSelect;

type LegacyCommit = Prisma.CommitGetPayload<{ select: typeof LEGACY_COMMIT_FIELDS }>;

/** In the order they were made: parents before their children. */
async function* legacyCommits(services: Services, projectId: number): AsyncGenerator<LegacyCommit> {
  let lastId = 0;
  for (;;) {
    const rows = await services.db.commit.findMany({
      where: { projectId, id: { gt: lastId } }, orderBy: { id: "asc" }, take: COMMITS_PER_READ, select: LEGACY_COMMIT_FIELDS,
    });
    yield* rows;
    if (rows.length < COMMITS_PER_READ) return;
    lastId = rows.at(-1)!.id;
  }
}

/**
 * A commit of the tree the row lists (every path an empty file), on the scratch ref: its first
 * parent as `from`, the second as `merge`; a root commit resets the scratch ref first (fast-import
 * would otherwise take the ref's tip as its parent).
 */
function commitCommand(row: LegacyCommit, marks: Marks, notes: string[]): string {
  const parents = [row.parentSha, row.secondParentSha].filter((sha): sha is string => sha !== null);
  const parentMarks = parents.map((sha) => marks.ofCommit(sha)).filter((mark): mark is number => mark !== undefined);
  if (parentMarks.length < parents.length) notes.push(`commit ${row.sha} lost a parent that was never recorded`);
  const person = (name: string, email: string) => formatSignature({ name, email, date: row.authoredAt, timezone: "+0000" });
  const paths = JSON.parse(row.treePaths) as string[];
  return [
    ...(parentMarks.length ? [] : [`reset ${SCRATCH_REF}`]),
    `commit ${SCRATCH_REF}`,
    `mark :${marks.addCommit(row.sha)}`,
    `author ${person(row.authorName, row.authorEmail)}`,
    `committer ${person(row.committerName, row.committerEmail)}`,
    `data ${Buffer.byteLength(row.message)}`,
    row.message,
    ...parentMarks.map((mark, i) => `${i === 0 ? "from" : "merge"} :${mark}`),
    "deleteall",
    ...paths.map((file) => `M 100644 :${EMPTY_BLOB_MARK} ${quotedPath(file)}`),
    "",
  ].join("\n") + "\n";
}

/** fast-import's C-style quoting, which any path may use. */
function quotedPath(file: string): string {
  const escaped = file
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/[\x00-\x1f\x7f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
  return `"${escaped}"`;
}

/** The branches and tags as their rows say (one naming no recorded commit is left out). */
async function refCommands(services: Services, projectId: number, marks: Marks, notes: string[]): Promise<string> {
  const [branches, tags] = await Promise.all([
    services.db.branch.findMany({ where: { projectId }, orderBy: { id: "asc" } }),
    services.db.tag.findMany({ where: { projectId }, orderBy: { id: "asc" } }),
  ]);
  const lines: string[] = [];
  for (const branch of branches) {
    const mark = marks.ofCommit(branch.headSha);
    if (mark === undefined) notes.push(`branch ${branch.name} named no recorded commit and was dropped`);
    else lines.push(`reset ${BRANCH_PREFIX}${branch.name}`, `from :${mark}`, "");
  }
  for (const tag of tags) {
    const mark = marks.ofCommit(tag.targetSha);
    if (mark === undefined) notes.push(`tag ${tag.name} named no recorded commit and was dropped`);
    else if (tag.message === null) lines.push(`reset ${TAG_PREFIX}${tag.name}`, `from :${mark}`, "");
    else lines.push(...annotatedTagCommand(tag, mark, marks.addTag(tag.name)));
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

type TagRow = { name: string; message: string | null; taggerName: string | null; taggerEmail: string | null; createdAt: Date };

function annotatedTagCommand(tag: TagRow, commitMark: number, tagMark: number): string[] {
  const message = tag.message!.endsWith("\n") ? tag.message! : `${tag.message}\n`;
  const tagged = tag.taggerName !== null || tag.taggerEmail !== null;
  const tagger = formatSignature({ name: tag.taggerName ?? "", email: tag.taggerEmail ?? "", date: tag.createdAt, timezone: "+0000" });
  return [
    `tag ${tag.name}`,
    `mark :${tagMark}`,
    `from :${commitMark}`,
    ...(tagged ? [`tagger ${tagger}`] : []),
    `data ${Buffer.byteLength(message)}`,
    message,
  ];
}

interface FastImport {
  /** waits while git's input is full */
  write(text: string): Promise<void>;
  /** the last of the input; resolves once git has written everything, or throws its failure */
  finish(text: string): Promise<void>;
  kill(): void;
}

/** `git fast-import` reading a stream written as it goes, writing its marks to `marksFile` at the end. */
function startFastImport(gitDir: string, marksFile: string): FastImport {
  const args = [`--git-dir=${gitDir}`, "fast-import", "--quiet", "--done", `--export-marks=${marksFile}`];
  const child = spawnGit(args);
  let stderr = "";
  let exitCode: number | null | undefined;
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdout!.resume();
  child.stdin!.on("error", () => {}); // git stopped reading: its exit code and stderr say why
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve((exitCode = code)));
  });
  exited.catch(() => {}); // awaited by write or finish
  const failure = () => new GitCommandError(args, exitCode ?? null, stderr);
  return {
    async write(text) {
      if (exitCode === undefined && !child.stdin!.write(text)) await Promise.race([once(child.stdin!, "drain").catch(() => {}), exited]);
      if (exitCode !== undefined) throw failure();
    },
    async finish(text) {
      child.stdin!.end(text);
      if ((await exited) !== 0) throw failure();
    },
    kill: () => child.kill("SIGKILL"),
  };
}

// --- the rows

/** Returns how many legacy rows were deleted (none: the project was deleted meanwhile). */
function rewriteRows(services: Services, projectId: number, history: ImportedHistory): Promise<number> {
  return services.db.$transaction(async (tx) => {
    await rewriteBranches(tx, projectId, history);
    await rewriteTags(tx, projectId, history);
    await rewriteMergeRequests(tx, projectId, history);
    return (await tx.commit.deleteMany({ where: { projectId } })).count;
  }, { timeout: TRANSACTION_TIMEOUT_MS });
}

// The rows keep their updatedAt: converting is not an update anyone made.

/** Rows copy the refs: a branch whose ref could not be written goes too. */
async function rewriteBranches(tx: Tx, projectId: number, { commitShas }: ImportedHistory): Promise<void> {
  for (const branch of await tx.branch.findMany({ where: { projectId } })) {
    const headSha = commitShas.get(branch.headSha);
    if (headSha) await tx.branch.update({ where: { id: branch.id }, data: { headSha, updatedAt: branch.updatedAt } });
    else await tx.branch.delete({ where: { id: branch.id } });
  }
}

async function rewriteTags(tx: Tx, projectId: number, { commitShas, tagObjects }: ImportedHistory): Promise<void> {
  for (const tag of await tx.tag.findMany({ where: { projectId } })) {
    const targetSha = commitShas.get(tag.targetSha);
    const objectSha = tag.message === null ? null : tagObjects.get(tag.name) ?? null;
    if (targetSha) await tx.tag.update({ where: { id: tag.id }, data: { targetSha, objectSha } });
    else await tx.tag.delete({ where: { id: tag.id } });
  }
}

/** A merge request's commits by their new ids; one the history never recorded keeps its id. */
async function rewriteMergeRequests(tx: Tx, projectId: number, { commitShas }: ImportedHistory): Promise<void> {
  const renamed = (sha: string | null) => (sha === null ? null : commitShas.get(sha) ?? sha);
  const rows = await tx.mergeRequest.findMany({
    where: { projectId, OR: [{ headSha: { not: null } }, { mergeCommitSha: { not: null } }, { squashCommitSha: { not: null } }] },
    select: { id: true, headSha: true, mergeCommitSha: true, squashCommitSha: true, updatedAt: true },
  });
  for (const row of rows) {
    const data = { headSha: renamed(row.headSha), mergeCommitSha: renamed(row.mergeCommitSha), squashCommitSha: renamed(row.squashCommitSha) };
    if (data.headSha === row.headSha && data.mergeCommitSha === row.mergeCommitSha && data.squashCommitSha === row.squashCommitSha) continue;
    await tx.mergeRequest.update({ where: { id: row.id }, data: { ...data, updatedAt: row.updatedAt } });
  }
}

// --- projects without history

/** Projects from before real git that had no history get an empty repository. Returns whether all have one now. */
async function createMissingRepositories(services: Services, log: ConversionLog, summary: ConversionSummary): Promise<boolean> {
  let complete = true;
  for await (const project of projectsWhere(services, {})) {
    if (services.git.exists(project.id)) continue;
    try {
      if (await createEmptyRepository(services, project)) summary.created++;
    } catch (error) {
      complete = false;
      summary.failed++;
      log(`An empty repository for project ${project.id} could not be created; the next start tries again`, error);
    }
  }
  return complete;
}

/** Not for a project whose history is still to be converted (a conversion that failed). */
function createEmptyRepository(services: Services, project: ProjectRef): Promise<boolean> {
  return withRepositoryLock(services.repositoryLocks, project.id, async () => {
    if (services.git.exists(project.id) || (await hasLegacyCommits(services, project.id))) return false;
    await services.git.create(project.id, project.defaultBranch);
    return true;
  });
}
