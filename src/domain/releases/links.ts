// A release's asset links (Releases::Links::CreateService, UpdateService, DestroyService): Developers
// and above (403), each link valid on its own and unique in its release by name, URL and path
// (400 with the validation's full messages).
import type { Prisma, ReleaseLink } from "../../generated/prisma/client.js";
import { AppError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import type { FoundLink, FoundRelease } from "./queries.js";
import { checkLinkType, fullMessages, linkData, linkProblems, requireWriteReleases, type LinkInput } from "./rules.js";

const invalid = (messages: string[]) => new AppError(400, { message: messages });

/** The uniqueness validations: which of name, url and filepath another link of the release already has. */
async function takenProblems(ctx: DomainContext, releaseId: number, link: { name?: string; url?: string; filepath?: string | null }, exceptId?: number) {
  const checks = (["name", "url", "filepath"] as const).filter((key) => link[key] != null && link[key] !== "");
  if (!checks.length) return [];
  const others = await ctx.db.releaseLink.findMany({
    where: { releaseId, ...(exceptId ? { id: { not: exceptId } } : {}), OR: checks.map((key) => ({ [key]: link[key] })) as Prisma.ReleaseLinkWhereInput[] },
    select: { name: true, url: true, filepath: true },
  });
  return checks.filter((key) => others.some((other) => other[key] === link[key])).map((key): [string, string] => [key, "has already been taken"]);
}

/** Grape's params of a link write (link_type's values), before the release is looked up. */
export function checkLinkInput(input: LinkInput): void {
  checkLinkType(input.link_type);
}

/** A unique index another writer won a race on reads as the validation would have. */
async function saving<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw invalid(["Link has already been taken"]);
    throw error;
  }
}

/** POST .../assets/links. */
export async function createLink(ctx: DomainContext, { access, release }: FoundRelease, input: LinkInput): Promise<ReleaseLink> {
  requireWriteReleases(ctx, access);
  const data = linkData(input);
  const problems = [...linkProblems(data), ...(await takenProblems(ctx, release.id, data))];
  if (problems.length) throw invalid(fullMessages(problems));
  return saving(() =>
    ctx.db.releaseLink.create({ data: { releaseId: release.id, name: data.name!, url: data.url!, filepath: data.filepath || null, linkType: data.linkType ?? "other" } }));
}

/** PUT .../assets/links/:link_id: name or url at least (Grape's at_least_one_of, checked by the surface), then the merged link's validations. */
export async function updateLink(ctx: DomainContext, { access, release, link }: FoundLink, input: LinkInput): Promise<ReleaseLink> {
  requireWriteReleases(ctx, access);
  // link_type defaults to `other` in the update's params too: a link updated without it becomes `other`
  const data = linkData({ ...input, link_type: input.link_type ?? "other" });
  const merged = { name: data.name ?? link.name, url: data.url ?? link.url, filepath: data.filepath === undefined ? link.filepath : data.filepath };
  const problems = [...linkProblems(merged), ...(await takenProblems(ctx, release.id, merged, link.id))];
  if (problems.length) throw invalid(fullMessages(problems));
  return saving(() =>
    ctx.db.releaseLink.update({ where: { id: link.id }, data: { ...data, ...(data.filepath !== undefined ? { filepath: data.filepath || null } : {}) } }));
}

/** DELETE .../assets/links/:link_id: answers the link as it was. */
export async function deleteLink(ctx: DomainContext, { access, link }: FoundLink): Promise<ReleaseLink> {
  requireWriteReleases(ctx, access);
  await ctx.db.releaseLink.deleteMany({ where: { id: link.id } });
  return link;
}

/** Grape's at_least_one_of :name, :url of a link update. */
export function checkLinkUpdate(input: LinkInput): void {
  checkLinkType(input.link_type);
  if (input.name == null && input.url == null) throw new AppError(400, { error: "name, url are missing, at least one parameter must be provided" });
}
