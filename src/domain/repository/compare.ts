// GET /projects/:id/repository/compare (lib/api/repositories.rb, CompareService, Gitlab::Git::Compare):
// the commits `to` has and `from` lacks, oldest first, and the diff from their merge base to `to`
// (from `from` itself when `straight`), within the diff limits of a collapsed collection.
import { AppError, notFound } from "../../errors.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { projectPageUrl } from "../shared/web-urls.js";
import { findRepositoryProject } from "./access.js";
import { diffCollection, type DiffView } from "./diffs.js";
import { readCommits, repositoryOf, resolveCommitSha, type CommitRecord, type GitRepository } from "./git.js";

export interface CompareRequest {
  from: string;
  to: string;
  straight?: boolean | null;
  unidiff?: boolean | null;
}

/** Entities::Compare. */
export interface CompareView {
  /** the newest commit of `commits` */
  commit: CommitRecord | null;
  commits: CommitRecord[];
  diffs: DiffView[];
  /** the diff stopped at its limits */
  compare_timeout: boolean;
  /** both refs name the same commit (null when `from` names none) */
  compare_same_ref: boolean | null;
  web_url: string;
}

/**
 * The project of a compare (`id`) whose repository the caller may read, and which `from_project_id`,
 * when given, must name: MergeRequestTargetProjectFinder finds the project and its forks, and
 * there are no forks here.
 */
export async function findComparedProject(ctx: DomainContext, id: string, fromProjectId: number | null | undefined): Promise<ProjectAccess> {
  const access = await findRepositoryProject(ctx, id);
  if (fromProjectId != null && fromProjectId !== access.project.id) {
    throw new AppError(400, { message: `Target project id:${fromProjectId} is not a fork of project id:${id}` });
  }
  return access;
}

/** Compares two refs of a project found by findComparedProject. */
export async function compareRefs(ctx: DomainContext, { project }: ProjectAccess, request: CompareRequest): Promise<CompareView> {
  const repo = repositoryOf(ctx, project.id);
  const head = await resolveCommitSha(repo, request.to);
  if (!head) throw notFound("Ref");
  const start = await resolveCommitSha(repo, request.from);
  const base = start && (request.straight ? start : ((await repo.mergeBase([start, head])) ?? start));
  const compared = start && start !== head ? await changes(ctx, repo, project.id, start, base!, head, request.unidiff ?? false) : unchanged();
  return {
    ...compared,
    commit: compared.commits.at(-1) ?? null,
    compare_same_ref: start ? start === head : null,
    web_url: projectPageUrl(ctx, project, "compare", `${base ?? ""}...${head}`),
  };
}

async function changes(ctx: DomainContext, repo: GitRepository, projectId: number, start: string, base: string, head: string, unidiff: boolean) {
  const shas = await repo.revList(["--reverse", head, `^${start}`]);
  const [commits, collection] = await Promise.all([readCommits(ctx, projectId, shas), diffCollection(repo, base, head, { unidiff })]);
  return { commits, diffs: collection.diffs, compare_timeout: collection.overflow };
}

const unchanged = () => ({ commits: [] as CommitRecord[], diffs: [] as DiffView[], compare_timeout: false });
