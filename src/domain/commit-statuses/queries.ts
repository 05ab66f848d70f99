// The ways in to a commit's statuses (lib/api/commit_statuses.rb): signed in always
// (`authenticate!`), then the project, the ability (read_commit_status or create_commit_status)
// and the commit.
import { forbidden, notFound } from "../../errors.js";
import type { FoundCommit } from "../repository/commit-api.js";
import { resolveCommit, type CommitRecord } from "../repository/git.js";
import { AccessLevel } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { requireAuthenticated } from "../shared/guards.js";
import { findProject, projectById, shownProjectAccess, type ProjectAccess } from "../shared/parents.js";
import { featureAvailable } from "../shared/project-features.js";

/**
 * read_commit_status: public_access (a public project, an internal one for a signed-in caller) or
 * Reporter and up, with the repository available to the caller (repository_disabled prevents it).
 */
export function canReadCommitStatus(ctx: DomainContext, access: ProjectAccess): boolean {
  if (!featureAvailable(ctx, access, "repository")) return false;
  if (isAdmin(ctx.actor) || access.level >= AccessLevel.reporter) return true;
  return access.project.visibility === "public" || (access.project.visibility === "internal" && !!ctx.actor);
}

/** create_commit_status: Developers and up (administrators too) of a project that is not archived, with its repository. */
export function canCreateCommitStatus(ctx: DomainContext, access: ProjectAccess): boolean {
  if (!ctx.actor || access.project.archived || !featureAvailable(ctx, access, "repository")) return false;
  return isAdmin(ctx.actor) || access.level >= AccessLevel.developer;
}

async function commitOf(ctx: DomainContext, access: ProjectAccess, sha: string): Promise<FoundCommit> {
  const commit = await resolveCommit(ctx, access.project.id, sha);
  if (!commit) throw notFound("Commit");
  return { access, commit };
}

/** GET .../commits/:sha/statuses: 401, 404 Project, 403 without read_commit_status, 404 Commit. */
export async function findCommitWithStatuses(ctx: DomainContext, id: string | number, sha: string): Promise<FoundCommit> {
  requireAuthenticated(ctx);
  const access = await findProject(ctx, id);
  if (!canReadCommitStatus(ctx, access)) throw forbidden();
  return commitOf(ctx, access, sha);
}

/** POST /projects/:id/statuses/:sha: 401, 404 Project, 403 without create_commit_status, 404 Commit. */
export async function findCommitToPostStatus(ctx: DomainContext, id: string | number, sha: string): Promise<FoundCommit> {
  requireAuthenticated(ctx);
  const access = await findProject(ctx, id);
  if (!canCreateCommitStatus(ctx, access)) throw forbidden();
  return commitOf(ctx, access, sha);
}

/** A commit the caller was already shown (the graph's Commit), for its statuses: 403 without read_commit_status. */
export async function shownCommitWithStatuses(ctx: DomainContext, commit: CommitRecord): Promise<FoundCommit> {
  const project = await projectById(ctx, commit.projectId);
  if (!project) throw notFound("Project");
  const access = await shownProjectAccess(ctx, project);
  if (!canReadCommitStatus(ctx, access)) throw forbidden();
  return { access, commit };
}
