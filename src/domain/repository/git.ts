// The domain's view of a project's git repository: opening it, finding what a ref names (as
// GitLab's `project.commit(ref)` does) and reading commits as the API shows them.
import type { CommitObject, Signature } from "../../git/objects.js";
import { isSha } from "../../git/objects.js";
import type { GitRepository } from "../../git/repository.js";
import type { CommitFacts } from "../shared/commits.js";
import type { Services } from "../shared/context.js";

export type { GitRepository } from "../../git/repository.js";

export const repositoryOf = (services: Pick<Services, "git">, projectId: number): GitRepository => services.git.open(projectId);

/** A commit as the API shows it: git's commit with the project it was read from. */
export interface CommitRecord extends CommitFacts {
  projectId: number;
  treeSha: string;
  /** the message's trailers, when they were read (each key's last value) */
  trailers?: Record<string, string> | null;
  /** the message's trailers, when they were read (each key's values, in order) */
  extendedTrailers?: Record<string, string[]> | null;
}

/** Commit#full_title. */
export function commitTitle(message: string): string {
  const line = message.split("\n", 1)[0]!.replace(/\r$/, "");
  return line.trim() ? line : "No commit message";
}

/** What the domain says of a commit git read. */
export function commitFacts(commit: CommitObject): CommitFacts {
  return {
    sha: commit.sha,
    parentShas: commit.parents,
    title: commitTitle(commit.message),
    message: commit.message,
    authorName: commit.author.name,
    authorEmail: commit.author.email,
    authoredAt: commit.author.date,
    authorTimezone: commit.author.timezone,
    committerName: commit.committer.name,
    committerEmail: commit.committer.email,
    committedAt: commit.committer.date,
    committerTimezone: commit.committer.timezone,
  };
}

export function commitRecord(projectId: number, commit: CommitObject): CommitRecord {
  return { projectId, treeSha: commit.tree, ...commitFacts(commit) };
}

/** A time as GitLab renders a git time: in the person's own UTC offset, with milliseconds. */
export function gitTime(date: Date, timezone: string): string {
  const sign = timezone.startsWith("-") ? -1 : 1;
  const minutes = sign * (Number(timezone.slice(1, 3)) * 60 + Number(timezone.slice(3, 5)));
  const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, 23);
  return `${local}${minutes < 0 ? "-" : "+"}${timezone.slice(1, 3)}:${timezone.slice(3, 5)}`;
}

export async function readCommit(services: Pick<Services, "git">, projectId: number, sha: string): Promise<CommitRecord | null> {
  const commit = await repositoryOf(services, projectId).commit(sha);
  return commit && commitRecord(projectId, commit);
}

/** Commits by id, in the order asked; ids the repository lacks are left out. */
export async function readCommits(services: Pick<Services, "git">, projectId: number, shas: readonly string[]): Promise<CommitRecord[]> {
  const commits = await repositoryOf(services, projectId).commits(shas);
  return commits.map((commit) => commitRecord(projectId, commit));
}

/** Characters git refuses in a ref name, and the revision syntax a ref given to the API must not use. */
const NOT_A_REF = /[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|^-|^\/|\/$|\.lock$|\/\/|\.$/;
/** The ancestry suffixes GitLab's refs may end with (`main~2`, `v1.0^2`, `HEAD^`). */
const ANCESTRY = /(?:[~^]\d{0,4})+$/;

/**
 * What GitLab's `project.commit(ref)` finds, as git would take the name: a full commit id, a tag
 * (peeled), a branch, a fully qualified ref, HEAD, or an unambiguous abbreviated id (4+ hex), each
 * with an ancestry suffix or not. Nothing else of git's revision syntax is passed on.
 */
export async function resolveCommitSha(repo: GitRepository, ref: string): Promise<string | null> {
  const suffix = ANCESTRY.exec(ref)?.[0] ?? "";
  const name = ref.slice(0, ref.length - suffix.length);
  if (!name) return null;
  if (isSha(name.toLowerCase())) return repo.commitShaOf(`${name.toLowerCase()}${suffix}`);
  const candidates = name === "HEAD" ? ["HEAD"] : NOT_A_REF.test(name) ? [] : name.startsWith("refs/") ? [name] : [`refs/tags/${name}`, `refs/heads/${name}`];
  for (const candidate of candidates) {
    const sha = await repo.commitShaOf(`${candidate}${suffix}`);
    if (sha) return sha;
  }
  if (/^[0-9a-f]{4,39}$/i.test(name)) return repo.commitShaOf(`${name.toLowerCase()}${suffix}`);
  return null;
}

/** resolveCommitSha, then the commit itself. */
export async function resolveCommit(services: Pick<Services, "git">, projectId: number, ref: string): Promise<CommitRecord | null> {
  const repo = repositoryOf(services, projectId);
  const sha = await resolveCommitSha(repo, ref);
  const commit = sha ? await repo.commit(sha) : null;
  return commit && commitRecord(projectId, commit);
}

/** A signature for writing: who, and now in UTC. */
export function signature(person: { name: string; email: string }, at: Date): Signature {
  return { name: person.name, email: person.email, date: at, timezone: "+0000" };
}
