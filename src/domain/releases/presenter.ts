// What GitLab's Release entity shows beyond the columns (ReleasePresenter, Releases::Source,
// Releases::LinkPresenter): the tag's commit, the sources, the links and the URLs, read for a
// whole page at once (one statement for the links, one git read per project for the commits, the
// milestones only for releases that have any).
import type { Release, ReleaseLink } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import type { ProjectAccess } from "../shared/parents.js";
import { projectFullPath, projectWebUrl } from "../shared/web-urls.js";
import { readCommits, type CommitRecord } from "../repository/git.js";
import { knownProjectPath } from "../repository/urls.js";
import { canReadMilestones } from "../milestones/rules.js";
import { milestonesOfReleases, type ReleaseMilestoneView } from "./milestones.js";
import { canDownloadCode, canWriteReleases, isHistorical, isUpcoming } from "./rules.js";

/** Gitlab::Workhorse::ARCHIVE_FORMATS, in GitLab's order. */
export const SOURCE_FORMATS = ["zip", "tar.gz", "tar.bz2", "tar"] as const;

export interface ReleaseView {
  access: ProjectAccess;
  release: Release;
  /** newest first (Releases::Link.sorted) */
  links: ReleaseLink[];
  /** the tag's commit when the release was made (null: no longer in the repository) */
  commit: CommitRecord | null;
  /** download_code: the tag, commit and sources are shown */
  downloadCode: boolean;
  /** update_release: the edit URL is shown */
  canUpdate: boolean;
  /** by milestone id; empty when it has none or the caller may not read the project's milestones */
  milestones: ReleaseMilestoneView[];
}

/** A release as a list reads it: with the number of its milestones (none: no statement for them). */
export type CountedRelease = Release & { _count?: { milestones: number } };

/** The `include` of a list's page: the milestones' count in the page's own statement. */
export const COUNT_MILESTONES = { _count: { select: { milestones: true } } } as const;

/** The Release entities of releases of projects the caller was shown, in the order given. */
export async function releaseViews(ctx: DomainContext, items: { access: ProjectAccess; release: CountedRelease }[]): Promise<ReleaseView[]> {
  if (!items.length) return [];
  for (const { access } of items) knownProjectPath(ctx, access.project);
  const withMilestones = items
    .filter(({ access, release }) => (release._count?.milestones ?? 1) > 0 && canReadMilestones(ctx, access))
    .map(({ release }) => release.id);
  const [links, milestones] = await Promise.all([
    ctx.db.releaseLink.findMany({
      where: { releaseId: { in: items.map((item) => item.release.id) } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    }),
    milestonesOfReleases(ctx, withMilestones),
  ]);
  const commits = new Map<string, CommitRecord>();
  const byProject = new Map<number, Set<string>>();
  for (const { release } of items) if (release.sha) byProject.set(release.projectId, (byProject.get(release.projectId) ?? new Set()).add(release.sha));
  await Promise.all([...byProject].map(async ([projectId, shas]) => {
    for (const commit of await readCommits(ctx, projectId, [...shas])) commits.set(`${projectId}:${commit.sha}`, commit);
  }));
  return items.map(({ access, release: { _count: _milestones, ...release } }) => ({
    access,
    release,
    milestones: milestones.get(release.id) ?? [],
    links: links.filter((link) => link.releaseId === release.id),
    commit: release.sha ? commits.get(`${release.projectId}:${release.sha}`) ?? null : null,
    downloadCode: canDownloadCode(ctx, access),
    canUpdate: canWriteReleases(ctx, access),
  }));
}

export const releaseView = async (ctx: DomainContext, found: { access: ProjectAccess; release: Release }) => (await releaseViews(ctx, [found]))[0]!;

type UrlContext = Pick<DomainContext, "config">;
type ProjectOnly = Pick<ProjectAccess, "project">;

const escapedTag = (tag: string) => encodeURIComponent(tag);

/** The release's page (`project_release_url`). */
export const releaseUrl = (ctx: UrlContext, access: ProjectOnly, tag: string) =>
  `${projectWebUrl(ctx, access.project)}/-/releases/${escapedTag(tag)}`;

/** Releases::Source#url: the tag's archive in each format. */
export function sourcesOf(ctx: UrlContext, access: ProjectOnly, tag: string) {
  const base = `${projectWebUrl(ctx, access.project)}/-/archive/${escapedTag(tag)}/${access.project.path}-${tag.replace(/\//g, "-")}`;
  return SOURCE_FORMATS.map((format) => ({ format, url: `${base}.${format}` }));
}

/** Releases::LinkPresenter#direct_asset_url: the release's download path of the asset, else the link's URL. */
export const directAssetUrl = (ctx: UrlContext, access: ProjectOnly, tag: string, link: ReleaseLink) =>
  link.filepath ? `${releaseUrl(ctx, access, tag)}/downloads${link.filepath}` : link.url;

/** Releases::Link#external?: not under the project's own web URL. */
export const isExternal = (ctx: UrlContext, access: ProjectOnly, link: ReleaseLink) => !link.url.startsWith(projectWebUrl(ctx, access.project));

/** ReleasePresenter: the name (hidden without download_code), paths and links. */
export function releaseFacts(ctx: DomainContext, view: ReleaseView) {
  const { access, release } = view;
  const fullPath = projectFullPath(access.project);
  const self = releaseUrl(ctx, access, release.tag);
  return {
    name: view.downloadCode ? release.name ?? release.tag : `Release-${release.id}`,
    upcoming: isUpcoming(release, ctx.now()),
    historical: isHistorical(release),
    commitPath: view.downloadCode && view.commit ? `/${fullPath}/-/commit/${view.commit.sha}` : null,
    tagPath: view.downloadCode ? `/${fullPath}/-/tags/${escapedTag(release.tag)}` : null,
    assetsCount: view.links.length + (view.downloadCode ? SOURCE_FORMATS.length : 0),
    sources: view.downloadCode ? sourcesOf(ctx, access, release.tag) : null,
    self,
    editUrl: view.canUpdate ? `${self}/edit` : null,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The release notes as HTML (GitLab's markdown_field :description). Forgeline renders no Markdown
 * (as labels' description_html): the text HTML-escaped, a paragraph per block between blank lines,
 * its line breaks kept as <br>; "" without notes, as markdown_field answers.
 */
export function releaseDescriptionHtml(description: string | null): string {
  if (!description?.trim()) return "";
  return description
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p dir="auto">${block.split("\n").map(escapeHtml).join("<br>\n")}</p>`)
    .join("\n");
}
