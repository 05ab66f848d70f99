// Creating, updating and deleting a release (Releases::CreateService, UpdateService and
// DestroyService): each write publishes its release event in its own transaction, so that the
// release hooks are queued exactly when the change is made.
import type { Release } from "../../generated/prisma/client.js";
import { AppError, conflict, paramError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { publish, type Tx } from "../shared/events.js";
import type { ProjectAccess } from "../shared/parents.js";
import { createTag } from "../repository/tags.js";
import type { FoundRelease } from "./queries.js";
import { releaseByTag } from "./queries.js";
import { releaseView, type ReleaseView } from "./presenter.js";
import { milestoneIdsOf, resolveMilestones, setReleaseMilestones, type MilestoneInput } from "./milestones.js";
import { fullMessages, linkData, linkProblems, parseTime, requireWriteReleases, type LinkInput } from "./rules.js";

const failed = (status: number, message: string) => new AppError(status, { message });

export type { MilestoneInput };

export interface CreateReleaseInput extends MilestoneInput {
  tag_name: string;
  tag_message?: string | null;
  name?: string | null;
  description?: string | null;
  ref?: string | null;
  released_at?: string | null;
  assets?: { links?: LinkInput[] | null } | null;
}

export interface UpdateReleaseInput extends MilestoneInput {
  name?: string | null;
  description?: string | null;
  released_at?: string | null;
}

/** Grape's params of a release write, before the project is looked up. */
export function checkReleaseInput(input: MilestoneInput & { released_at?: string | null; assets?: CreateReleaseInput["assets"] }): void {
  if (input.milestones != null && input.milestone_ids != null) {
    throw paramError("milestones, milestone_ids Cannot specify milestones and milestone_ids at the same time");
  }
  milestoneIdsOf(input);
  parseTime("released_at", input.released_at);
  (input.assets?.links ?? []).forEach((link, i) => {
    if (link.name == null) throw paramError(`assets[links][${i}][name] is missing`);
    if (link.url == null) throw paramError(`assets[links][${i}][url] is missing`);
  });
}

/** The links of a new release, validated as Release's nested attributes are ("Validation failed: Links ..."). */
function newLinks(inputs: LinkInput[]) {
  const links = inputs.map(linkData);
  for (const link of links) {
    const problems = linkProblems(link);
    if (problems.length) throw failed(400, `Validation failed: ${fullMessages(problems.map(([attribute, message]) => [`links ${attribute}`, message])).join(", ")}`);
  }
  for (const key of ["name", "url", "filepath"] as const) {
    const values = links.map((link) => link[key]).filter((value) => value != null && value !== "");
    if (new Set(values).size !== values.length) throw failed(400, `Validation failed: Links have duplicate values (${key})`);
  }
  return links;
}

const linksOf = (tx: Tx, releaseId: number) => tx.releaseLink.findMany({ where: { releaseId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });

/**
 * POST /projects/:id/releases: create_release (403), an existing release (409), the milestones
 * (400: titles or ids not among the project's and its group's), then the tag: the existing one,
 * or one created from `ref` (422 without a ref, the tag service's 400s), then the release with its
 * links and milestones.
 */
export async function createRelease(ctx: DomainContext, access: ProjectAccess, input: CreateReleaseInput): Promise<ReleaseView> {
  requireWriteReleases(ctx, access);
  const actor = ctx.actor!;
  const projectId = access.project.id;
  if (await releaseByTag(ctx, projectId, input.tag_name)) throw conflict("Release already exists");
  const milestones = await resolveMilestones(ctx, access, input);
  const links = newLinks(input.assets?.links ?? []);
  const releasedAt = parseTime("released_at", input.released_at);
  let tag = await ctx.db.tag.findUnique({ where: { projectId_name: { projectId, name: input.tag_name } } });
  if (!tag) {
    if (!input.ref) throw failed(422, "Ref is not specified");
    tag = (await createTag(ctx, access, { tag_name: input.tag_name, ref: input.ref, message: input.tag_message })).tag;
  }
  const now = ctx.now();
  const release = await ctx.db.$transaction(async (tx) => {
    const created = await tx.release.create({
      data: {
        projectId, tag: tag.name, name: input.name ?? tag.name, description: input.description ?? null, sha: tag.targetSha,
        authorId: actor.user.id, releasedAt: releasedAt ?? now, createdAt: now,
        links: { create: links.map((link, i) => ({ name: link.name!, url: link.url!, filepath: link.filepath || null, linkType: link.linkType ?? "other", createdAt: new Date(now.getTime() + i) })) },
      },
    }).catch((error: unknown) => {
      if ((error as { code?: string }).code === "P2002") throw conflict("Release already exists");
      throw error;
    });
    if (milestones?.length) await setReleaseMilestones(tx, created.id, milestones);
    await publish(tx, ctx, "release", { action: "create", projectId, release: created, links: await linksOf(tx, created.id), actorId: actor.user.id });
    return created;
  });
  return releaseView(ctx, { access, release });
}

/**
 * PUT /projects/:id/releases/:tag_name of a release found by findReleaseToWrite: "params is empty"
 * (400), the milestones (400), then the columns and the milestones given (an empty list unlinks all).
 */
export async function updateRelease(ctx: DomainContext, found: FoundRelease, input: UpdateReleaseInput): Promise<ReleaseView> {
  requireWriteReleases(ctx, found.access);
  const given = Object.entries(input).filter(([, value]) => value != null);
  if (!given.length) throw failed(400, "params is empty");
  const milestones = await resolveMilestones(ctx, found.access, input);
  const releasedAt = parseTime("released_at", input.released_at);
  const data: Partial<Pick<Release, "name" | "description" | "releasedAt">> = {};
  if (input.name != null) data.name = input.name;
  if (input.description != null) data.description = input.description;
  if (releasedAt) data.releasedAt = releasedAt;
  const release = await ctx.db.$transaction(async (tx) => {
    // the milestones alone leave the release's own columns (updated_at too) as they were
    const updated = Object.keys(data).length ? await tx.release.update({ where: { id: found.release.id }, data }) : found.release;
    if (milestones) await setReleaseMilestones(tx, updated.id, milestones);
    await publish(tx, ctx, "release", { action: "update", projectId: updated.projectId, release: updated, links: await linksOf(tx, updated.id), actorId: ctx.actor!.user.id });
    return updated;
  });
  return releaseView(ctx, { access: found.access, release });
}

/** DELETE /projects/:id/releases/:tag_name: the release and its links go, the tag stays; answers the release as it was. */
export async function deleteRelease(ctx: DomainContext, found: FoundRelease): Promise<ReleaseView> {
  requireWriteReleases(ctx, found.access);
  const view = await releaseView(ctx, found);
  await ctx.db.$transaction(async (tx) => {
    await publish(tx, ctx, "release", { action: "delete", projectId: found.release.projectId, release: found.release, links: view.links, actorId: ctx.actor!.user.id });
    await tx.release.deleteMany({ where: { id: found.release.id } });
  });
  return view;
}
