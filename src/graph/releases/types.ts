// Releases in the graph (GitLab's Release, ReleaseAssets, ReleaseAssetLink, ReleaseSource and
// ReleaseLinks types): Project.releases and Project.release(tagName:), read through the same domain
// list, lookup and presenter as REST's /projects/:id/releases, so both show the same rows and facts.
import type { ReleaseLink } from "../../generated/prisma/client.js";
import type { Context } from "../../context.js";
import { listReleases } from "../../domain/releases/lists.js";
import { directAssetUrl, isExternal, releaseDescriptionHtml, releaseFacts, releaseView, type ReleaseView } from "../../domain/releases/presenter.js";
import { findLinkById, findReleaseById, shownProjectRelease } from "../../domain/releases/queries.js";
import { shownProjectAccess } from "../../domain/shared/parents.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { arrayConnection, offsetConnection } from "../shared/connections.js";
import { registerNodeLoader } from "../shared/node.js";
import { MilestoneConnection, MilestoneRef } from "../milestones/types.js";
import { ProjectRef } from "../projects/types.js";
import { CommitRef } from "../repository/commits.js";
import { UserRef, userById } from "../users/types.js";

export const ReleaseRef = builder.objectRef<ReleaseView>("Release");

/** A link with what its facts need: the release's project and tag. */
export interface LinkView {
  view: Pick<ReleaseView, "access" | "release">;
  link: ReleaseLink;
}
export const ReleaseAssetLinkRef = builder.objectRef<LinkView>("ReleaseAssetLink");

const LINK_TYPES = ["other", "runbook", "package", "image"] as const;
export const ReleaseAssetLinkTypeEnum = builder.enumType("ReleaseAssetLinkType", {
  values: Object.fromEntries(LINK_TYPES.map((type) => [type.toUpperCase(), { value: type }])) as Record<Uppercase<(typeof LINK_TYPES)[number]>, { value: (typeof LINK_TYPES)[number] }>,
});

builder.node(ReleaseAssetLinkRef, {
  description: "An asset link of a release.",
  id: { resolve: ({ link }) => link.id },
  fields: (t) => ({
    name: t.string({ resolve: ({ link }) => link.name }),
    url: t.string({ resolve: ({ link }) => link.url }),
    linkType: t.field({ type: ReleaseAssetLinkTypeEnum, resolve: ({ link }) => link.linkType as (typeof LINK_TYPES)[number] }),
    external: t.boolean({ description: "Not under the project's web URL.", resolve: ({ view, link }, _a, ctx) => isExternal(ctx, view.access, link) }),
    directAssetPath: t.string({ nullable: true, resolve: ({ link }) => link.filepath }),
    directAssetUrl: t.string({ resolve: ({ view, link }, _a, ctx) => directAssetUrl(ctx, view.access, view.release.tag, link) }),
  }),
});

const ReleaseSourceRef = builder.objectRef<{ format: string; url: string }>("ReleaseSource");
builder.objectType(ReleaseSourceRef, {
  description: "An archive of the release's tag.",
  fields: (t) => ({ format: t.exposeString("format"), url: t.exposeString("url") }),
});

const ReleaseAssetLinkConnection = countedConnection(ReleaseAssetLinkRef, "ReleaseAssetLink");
const ReleaseSourceConnection = countedConnection(ReleaseSourceRef, "ReleaseSource");

const ReleaseAssetsRef = builder.objectRef<ReleaseView>("ReleaseAssets");
builder.objectType(ReleaseAssetsRef, {
  description: "The links and the source archives of a release.",
  fields: (t) => ({
    count: t.int({ resolve: (view, _a, ctx) => releaseFacts(ctx, view).assetsCount }),
    links: t.connection(
      { type: ReleaseAssetLinkRef, description: "Newest first.", resolve: (view, args) => arrayConnection(args, view.links.map((link) => ({ view, link }))) },
      ReleaseAssetLinkConnection,
    ),
    sources: t.connection(
      { type: ReleaseSourceRef, description: "Empty for who may not read the code.", resolve: (view, args, ctx) => arrayConnection(args, releaseFacts(ctx, view).sources ?? []) },
      ReleaseSourceConnection,
    ),
  }),
});

const ReleaseLinksRef = builder.objectRef<ReleaseView>("ReleaseLinks");
builder.objectType(ReleaseLinksRef, {
  description: "The web pages of a release.",
  fields: (t) => ({
    selfUrl: t.string({ resolve: (view, _a, ctx) => releaseFacts(ctx, view).self }),
    editUrl: t.string({ nullable: true, description: "Only for who may change it.", resolve: (view, _a, ctx) => releaseFacts(ctx, view).editUrl }),
  }),
});

builder.node(ReleaseRef, {
  description: "A release of a project, on one of its tags.",
  id: { resolve: (view) => view.release.id },
  fields: (t) => ({
    tagName: t.string({ nullable: true, description: "Hidden from who may not read the code.", resolve: (view) => (view.downloadCode ? view.release.tag : null) }),
    tagPath: t.string({ nullable: true, resolve: (view, _a, ctx) => releaseFacts(ctx, view).tagPath }),
    name: t.string({ resolve: (view, _a, ctx) => releaseFacts(ctx, view).name }),
    description: t.string({ nullable: true, resolve: (view) => view.release.description }),
    descriptionHtml: t.string({ description: "The description as HTML (escaped text in paragraphs: Markdown is not rendered).", resolve: (view) => releaseDescriptionHtml(view.release.description) }),
    releasedAt: t.field({ type: "Time", resolve: (view) => view.release.releasedAt }),
    createdAt: t.field({ type: "Time", resolve: (view) => view.release.createdAt }),
    upcomingRelease: t.boolean({ resolve: (view, _a, ctx) => releaseFacts(ctx, view).upcoming }),
    historicalRelease: t.boolean({ resolve: (view, _a, ctx) => releaseFacts(ctx, view).historical }),
    author: t.field({ type: UserRef, nullable: true, resolve: (view, _a, ctx) => (view.release.authorId == null ? null : userById(ctx, view.release.authorId)) }),
    commit: t.field({ type: CommitRef, nullable: true, description: "The tag's commit; hidden from who may not read the code.", resolve: (view) => (view.downloadCode ? view.commit : null) }),
    assets: t.field({ type: ReleaseAssetsRef, resolve: (view) => view }),
    links: t.field({ type: ReleaseLinksRef, resolve: (view) => view }),
    milestones: t.connection(
      { type: MilestoneRef, description: "Empty for who may not read the project's milestones.", resolve: (view, args) => arrayConnection(args, view.milestones.map((m) => m.milestone)) },
      MilestoneConnection,
    ),
  }),
});

const ReleaseConnection = countedConnection(ReleaseRef, "Release");

const ReleaseSortEnum = builder.enumType("ReleaseSort", {
  values: ["CREATED_DESC", "CREATED_ASC", "RELEASED_AT_DESC", "RELEASED_AT_ASC"] as const,
});

/** The REST list's order_by and sort of a ReleaseSort value. */
const orderOfSort = (sort: string) => ({
  order_by: sort.startsWith("CREATED") ? ("created_at" as const) : ("released_at" as const),
  sort: sort.endsWith("ASC") ? ("asc" as const) : ("desc" as const),
});

builder.objectFields(ProjectRef, (t) => ({
  releases: t.connection(
    {
      type: ReleaseRef,
      description: "The project's releases, as GET /projects/:id/releases lists them.",
      args: { sort: t.arg({ type: ReleaseSortEnum, defaultValue: "RELEASED_AT_DESC" }) },
      resolve: async (project, args, ctx: Context) => {
        const access = await shownProjectAccess(ctx, project);
        return offsetConnection(args, (page) => listReleases(ctx, access, orderOfSort(args.sort ?? "RELEASED_AT_DESC"), page));
      },
    },
    ReleaseConnection,
  ),
  release: t.field({
    type: ReleaseRef,
    nullable: true,
    description: "The release of this tag (GitLab's ReleasesFinder: read_release, so a guest without read_code sees it without its tag and commit); null when there is none.",
    args: { tagName: t.arg.string({ required: true }) },
    resolve: async (project, args, ctx) => {
      const access = await shownProjectAccess(ctx, project);
      const found = await shownProjectRelease(ctx, access, args.tagName);
      return found && releaseView(ctx, found);
    },
  }),
}));

// read_release, as the lists: whoever may see the project
registerNodeLoader("Release", ReleaseRef, async (ctx, id) => releaseView(ctx, await findReleaseById(ctx, id)));
registerNodeLoader("Releases::Link", ReleaseAssetLinkRef, async (ctx, id) => {
  const { link, ...view } = await findLinkById(ctx, id);
  return { view, link };
});
