// Repository tags (lib/api/tags.rb, Tags::CreateService / DestroyService): list, read, create and
// delete, each write through the one ref-update path (so a tag push is published). A lightweight
// tag's ref names a commit; an annotated one (a message) names a tag object of its own. No
// protected tags: `protected` is false and anyone who may push code manages tags (admin_tag).
import type { Tag } from "../../generated/prisma/client.js";
import { AppError, notFound, paramError } from "../../errors.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA } from "../shared/events.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { findRepositoryProject, findRepositoryToPush, requireRepositoryEnabled } from "./access.js";
import { readCommits, repositoryOf, resolveCommitSha, signature, type CommitRecord } from "./git.js";
import { moveRefs, TAG_PREFIX, withRepository } from "./ref-updates.js";
import { isValidBranchName } from "./refs.js";

export interface TagView {
  tag: Tag;
  commit: CommitRecord;
  /** the tag object's id (annotated), or the commit's (lightweight) */
  target: string;
}

export interface TagFilters {
  order_by?: "name" | "updated" | "version" | null;
  sort?: "asc" | "desc" | null;
  search?: string | null;
}

const failed = (message: string) => new AppError(400, { message });

const targetOf = (tag: Tag) => tag.objectSha ?? tag.targetSha;

async function views(ctx: DomainContext, projectId: number, tags: Tag[]): Promise<TagView[]> {
  const commits = await readCommits(ctx, projectId, [...new Set(tags.map((t) => t.targetSha))]);
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  return tags.filter((tag) => bySha.has(tag.targetSha)).map((tag) => ({ tag, commit: bySha.get(tag.targetSha)!, target: targetOf(tag) }));
}

/** Version order of tag names (`v1.10` after `v1.9`), as GitLab's `version` sort compares them. */
const versionCompare = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

/**
 * GET /projects/:id/repository/tags (TagsFinder): search (`^prefix`, `suffix$`, else substring,
 * any case), then order (updated: commit date).
 */
export async function listTags(ctx: DomainContext, access: ProjectAccess, filters: TagFilters, page: PageArgs): Promise<Page<TagView>> {
  requireRepositoryEnabled(ctx, access);
  const { project } = access;
  const tags = await views(ctx, project.id, await ctx.db.tag.findMany({ where: { projectId: project.id } }));
  const term = filters.search?.toLowerCase();
  const matches = (name: string) =>
    !term ? true : term.startsWith("^") ? name.startsWith(term.slice(1)) : term.endsWith("$") ? name.endsWith(term.slice(0, -1)) : name.includes(term);
  const orderBy = filters.order_by ?? "updated";
  const compare = (a: TagView, b: TagView) =>
    orderBy === "name" ? (a.tag.name < b.tag.name ? -1 : a.tag.name > b.tag.name ? 1 : 0)
      : orderBy === "version" ? versionCompare(a.tag.name, b.tag.name)
        : a.commit.authoredAt.getTime() - b.commit.authoredAt.getTime() || a.tag.id - b.tag.id;
  const direction = (filters.sort ?? "desc") === "desc" ? -1 : 1;
  const listed = tags.filter((v) => matches(v.tag.name.toLowerCase())).sort((a, b) => direction * compare(a, b));
  return paginateList(listed, page);
}

async function tagOrFail(ctx: DomainContext, projectId: number, name: string): Promise<Tag> {
  const tag = await ctx.db.tag.findUnique({ where: { projectId_name: { projectId, name } } });
  if (!tag) throw notFound("Tag");
  return tag;
}

/** A tag of a project, found with the access that let the caller find it. */
export interface FoundTag {
  access: ProjectAccess;
  tag: Tag;
}

/** GET /projects/:id/repository/tags/:tag_name: a tag of a repository the caller may read. */
export async function findTag(ctx: DomainContext, id: string, name: string): Promise<FoundTag> {
  const access = await findRepositoryProject(ctx, id);
  return { access, tag: await tagOrFail(ctx, access.project.id, name) };
}

/** DELETE .../tags/:tag_name: signed in (401), the project (404), push_code (403), then the tag. */
export async function findTagToDelete(ctx: DomainContext, id: string, name: string): Promise<FoundTag> {
  requireAuthenticated(ctx);
  const access = await findRepositoryToPush(ctx, id);
  return { access, tag: await tagOrFail(ctx, access.project.id, name) };
}

/** What the Tag entity shows of a found tag. */
export async function tagView(ctx: DomainContext, { access, tag }: FoundTag): Promise<TagView> {
  return (await views(ctx, access.project.id, [tag]))[0]!;
}

export interface CreateTagInput {
  tag_name: string;
  ref: string;
  message?: string | null;
}

/** POST .../tags, before the project is looked up: signed in (401), then Grape's params (400). */
export function checkTagCreation(ctx: DomainContext, input: CreateTagInput): void {
  requireAuthenticated(ctx);
  if (!input.tag_name.trim()) throw paramError("tag_name is empty");
  if (!input.ref.trim()) throw paramError("ref is empty");
}

/** Tags::CreateService in a repository the caller may push to (findRepositoryToPush), after checkTagCreation. */
export async function createTag(ctx: DomainContext, access: ProjectAccess, input: CreateTagInput): Promise<TagView> {
  const user = ctx.actor!.user;
  const projectId = access.project.id;
  if (!isValidBranchName(input.tag_name)) throw failed("Tag name invalid");
  const repo = repositoryOf(ctx, projectId);
  const commitSha = await resolveCommitSha(repo, input.ref);
  if (!commitSha) throw failed(`Target ${input.ref} is invalid`);
  await withRepository(ctx, projectId, async () => {
    const taken = await ctx.db.tag.findUnique({ where: { projectId_name: { projectId, name: input.tag_name } }, select: { id: true } });
    if (taken) throw failed(`Tag ${input.tag_name} already exists`);
    const target = input.message
      ? await repo.writeTag({ object: commitSha, objectType: "commit", name: input.tag_name, tagger: signature(user, ctx.now()), message: input.message })
      : commitSha;
    await moveRefs(ctx, projectId, [{ ref: `${TAG_PREFIX}${input.tag_name}`, oldSha: BLANK_SHA, newSha: target }], { actorId: user.id });
  });
  return (await views(ctx, projectId, [await tagOrFail(ctx, projectId, input.tag_name)]))[0]!;
}

/** Tags::DestroyService of a tag found by findTagToDelete: the tag's release (and its links) go with it. */
export async function deleteTag(ctx: DomainContext, { access, tag: found }: FoundTag): Promise<boolean> {
  const user = ctx.actor!.user;
  const projectId = access.project.id;
  const { name } = found;
  await withRepository(ctx, projectId, async () => {
    const tag = await tagOrFail(ctx, projectId, name);
    await moveRefs(ctx, projectId, [{ ref: `${TAG_PREFIX}${name}`, oldSha: targetOf(tag), newSha: BLANK_SHA }], { actorId: user.id });
    await ctx.db.release.deleteMany({ where: { projectId, tag: name } });
  });
  return true;
}
