// One release of a project, found by its tag (GitLab's `project.releases.find_by_tag`), and one
// asset link of a release, each with the read or write rule of the route that asks.
import type { Release, ReleaseLink } from "../../generated/prisma/client.js";
import { forbidden, notFound, recordNotFound } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireReadCode } from "../repository/access.js";
import { canWriteReleases } from "./rules.js";

/** A release found through a project the caller may see. */
export interface FoundRelease {
  access: ProjectAccess;
  release: Release;
}

/** A link found through its release. */
export interface FoundLink extends FoundRelease {
  link: ReleaseLink;
}

export const releaseByTag = (ctx: DomainContext, projectId: number, tag: string) =>
  ctx.db.release.findUnique({ where: { projectId_tag: { projectId, tag } } });

/** The project of the releases list (read_release: whoever may see the project). */
export const findReleasesProject = (ctx: DomainContext, id: string | number): Promise<ProjectAccess> => findProject(ctx, id);

/** GET /projects/:id/releases/:tag_name: the project (404), read_code (403), then the release (404 Not Found). */
export async function findRelease(ctx: DomainContext, id: string | number, tag: string): Promise<FoundRelease> {
  const access = await findProject(ctx, id);
  requireReadCode(ctx, access);
  const release = await releaseByTag(ctx, access.project.id, tag);
  if (!release) throw notFound();
  return { access, release };
}

/**
 * PUT and DELETE /projects/:id/releases/:tag_name: the project (404), then update_release /
 * destroy_release on the release, which a missing release fails too (403, as GitLab's
 * `authorize!` on nil).
 */
export async function findReleaseToWrite(ctx: DomainContext, id: string | number, tag: string): Promise<FoundRelease> {
  const access = await findProject(ctx, id);
  const release = await releaseByTag(ctx, access.project.id, tag);
  if (!release || !canWriteReleases(ctx, access)) throw forbidden();
  return { access, release };
}

/** The release of the links API: the project (404), then `find_by_tag!` (404 Not found). */
export async function findReleaseOfLinks(ctx: DomainContext, id: string | number, tag: string): Promise<FoundRelease> {
  const access = await findProject(ctx, id);
  const release = await releaseByTag(ctx, access.project.id, tag);
  if (!release) throw recordNotFound();
  return { access, release };
}

/** A release of a project the caller was already shown (the graph's `release(tagName:)`): null when there is none. */
export async function shownProjectRelease(ctx: DomainContext, access: ProjectAccess, tag: string): Promise<FoundRelease | null> {
  const release = await releaseByTag(ctx, access.project.id, tag);
  return release && { access, release };
}

/** A release by database id (a graph global id): its project must be visible, else 404. */
export async function findReleaseById(ctx: DomainContext, id: number): Promise<FoundRelease> {
  const release = Number.isSafeInteger(id) ? await ctx.db.release.findUnique({ where: { id } }) : null;
  if (!release) throw notFound("Release");
  return { access: await findProject(ctx, release.projectId), release };
}

/** .../assets/links/:link_id: a link of the found release, else 404 Not found. */
export async function findLink(ctx: DomainContext, found: FoundRelease, linkId: number): Promise<FoundLink> {
  const link = Number.isSafeInteger(linkId) ? await ctx.db.releaseLink.findFirst({ where: { id: linkId, releaseId: found.release.id } }) : null;
  if (!link) throw recordNotFound();
  return { ...found, link };
}

/** The link of a found release whose direct asset path is `/<path>` (the downloads redirect), else 404 Not found. */
export async function findLinkByAssetPath(ctx: DomainContext, found: FoundRelease, path: string): Promise<FoundLink> {
  const link = await ctx.db.releaseLink.findFirst({ where: { releaseId: found.release.id, filepath: `/${path}` } });
  if (!link) throw recordNotFound();
  return { ...found, link };
}

/** A link by database id (the graph's link mutations name only the link): through its release's visible project, else 404. */
export async function findLinkById(ctx: DomainContext, linkId: number): Promise<FoundLink> {
  const link = Number.isSafeInteger(linkId) ? await ctx.db.releaseLink.findUnique({ where: { id: linkId } }) : null;
  if (!link) throw notFound("Release link");
  const found = await findReleaseById(ctx, link.releaseId);
  return { ...found, link };
}
