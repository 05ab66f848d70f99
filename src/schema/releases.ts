// Releases (GitLab's Releases API and Release Links API): a project's releases of its tags with
// their asset links, the latest release's permalink and the group's releases.
import type { ReleaseLink } from "../generated/prisma/client.js";
import type { Context } from "../context.js";
import { userLoader } from "../domain/shared/loaders.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { requireReadCode } from "../domain/repository/access.js";
import { checkLinkInput, checkLinkUpdate, createLink, deleteLink, updateLink } from "../domain/releases/links.js";
import { latestRelease, listGroupReleases, listLinks, listReleases } from "../domain/releases/lists.js";
import { directAssetUrl, releaseFacts, releaseView, type ReleaseView } from "../domain/releases/presenter.js";
import { findLink, findLinkByAssetPath, findRelease, findReleaseOfLinks, findReleasesProject, findReleaseToWrite, type FoundRelease } from "../domain/releases/queries.js";
import { isUpcoming } from "../domain/releases/rules.js";
import { checkReleaseInput, createRelease, deleteRelease, updateRelease } from "../domain/releases/writes.js";
import { notFound, paramError } from "../errors.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { CommitEntity } from "./repository.js";
import { UserBasic } from "./users.js";
import { milestoneEntityFields, type MilestoneFields } from "./milestones.js";
import { milestoneEntity, type MilestoneEntity } from "../domain/milestones/presenter.js";
import type { ReleaseMilestoneView } from "../domain/releases/milestones.js";
import * as route from "../rest/route.js";

/** A field Grape leaves out when it is null (`if:` / `expose_nil: false`). */
const whenPresent = (field: string) => ({ restIf: field });

/** A link with the release it belongs to (for its direct asset URL). */
interface LinkView {
  link: ReleaseLink;
  found: FoundRelease;
}

/** Entities::Releases::Link. */
const ReleaseLinkEntity = builder.objectRef<LinkView>("ReleaseLink").implement({
  fields: (t) => ({
    id: t.int({ resolve: ({ link }) => link.id }),
    name: t.string({ resolve: ({ link }) => link.name }),
    url: t.string({ resolve: ({ link }) => link.url }),
    direct_asset_url: t.string({ resolve: ({ link, found }, _a, ctx) => directAssetUrl(ctx, found.access, found.release.tag, link) }),
    link_type: t.string({ resolve: ({ link }) => link.linkType }),
  }),
});

const ReleaseSourceEntity = builder.objectRef<{ format: string; url: string }>("ReleaseSource").implement({
  fields: (t) => ({ format: t.exposeString("format"), url: t.exposeString("url") }),
});

const ReleaseAssetsEntity = builder.objectRef<ReleaseView>("ReleaseAssets").implement({
  fields: (t) => ({
    count: t.int({ resolve: (view, _a, ctx) => releaseFacts(ctx, view).assetsCount }),
    sources: t.field({ type: [ReleaseSourceEntity], nullable: true, extensions: whenPresent("sources"), resolve: (view, _a, ctx) => releaseFacts(ctx, view).sources }),
    links: t.field({ type: [ReleaseLinkEntity], resolve: (view) => view.links.map((link) => ({ link, found: view })) }),
  }),
});

const ReleaseLinksEntity = builder.objectRef<ReleaseView>("ReleaseLinks").implement({
  fields: (t) => ({
    self: t.string({ resolve: (view, _a, ctx) => releaseFacts(ctx, view).self }),
    edit_url: t.string({ nullable: true, extensions: whenPresent("edit_url"), resolve: (view, _a, ctx) => releaseFacts(ctx, view).editUrl }),
  }),
});

type MilestoneWithStats = MilestoneEntity & { issue_stats: { total: number; closed: number } };

const IssueStatsEntity = builder.objectRef<{ total: number; closed: number }>("MilestoneIssueStats").implement({
  fields: (t) => ({ total: t.exposeInt("total"), closed: t.exposeInt("closed") }),
});

/** Entities::MilestoneWithStats: the Milestone entity and its issues' counts. */
const MilestoneWithStatsEntity = builder.objectRef<MilestoneWithStats>("MilestoneWithStats").implement({
  fields: (t) => ({
    // a MilestoneWithStats is a MilestoneEntity: the same fields read it
    ...milestoneEntityFields(t as unknown as MilestoneFields),
    issue_stats: t.field({ type: IssueStatsEntity, resolve: (m) => m.issue_stats }),
  }),
});

const withStats = async (ctx: Context, { milestone, total, closed }: ReleaseMilestoneView): Promise<MilestoneWithStats> =>
  ({ ...(await milestoneEntity(ctx, milestone)), issue_stats: { total, closed } });

/**
 * A group release asked for with simple=true: Entities::BasicReleaseDetails, the Release entity's
 * name, tag_name, description, created_at, released_at and upcoming_release (the rest left out).
 */
type SimpleView = ReleaseView & { simple?: boolean };
const isSimple = (view: SimpleView) => view.simple === true;
/** A field of the full entity only: null (left out) in a simple one. */
const full = <T>(view: SimpleView, value: T): T | null => (isSimple(view) ? null : value);

/** Entities::Release: the tag, its commit, the sources and the evidences only for those who may download the code. */
const ReleaseEntity = builder.objectRef<ReleaseView>("Release").implement({
  fields: (t) => ({
    name: t.string({ resolve: (view: SimpleView, _a, ctx) => (isSimple(view) ? view.release.name ?? view.release.tag : releaseFacts(ctx, view).name) }),
    tag_name: t.string({ nullable: true, extensions: whenPresent("tag_name"), resolve: (view: SimpleView) => (view.downloadCode || isSimple(view) ? view.release.tag : null) }),
    description: t.string({ nullable: true, resolve: (view) => view.release.description }),
    created_at: t.field({ type: "DateTime", resolve: (view) => view.release.createdAt }),
    released_at: t.field({ type: "DateTime", resolve: (view) => view.release.releasedAt }),
    author: t.field({
      type: UserBasic,
      nullable: true,
      extensions: whenPresent("author"),
      resolve: (view: SimpleView, _a, ctx) => (view.release.authorId === null || isSimple(view) ? null : ctx.loaders.get(userLoader).load(view.release.authorId)),
    }),
    commit: t.field({ type: CommitEntity, nullable: true, extensions: whenPresent("commit"), resolve: (view: SimpleView) => full(view, view.downloadCode ? view.commit : null) }),
    upcoming_release: t.boolean({ resolve: (view, _a, ctx) => isUpcoming(view.release, ctx.now()) }),
    // left out of a release without any, and for those who may not read the project's milestones
    milestones: t.field({
      type: [MilestoneWithStatsEntity],
      nullable: true,
      extensions: whenPresent("milestones"),
      resolve: (view: SimpleView, _a, ctx) =>
        (view.milestones.length && !isSimple(view) ? Promise.all(view.milestones.map((m) => withStats(ctx, m))) : null),
    }),
    commit_path: t.string({ nullable: true, extensions: whenPresent("commit_path"), resolve: (view: SimpleView, _a, ctx) => full(view, releaseFacts(ctx, view).commitPath) }),
    tag_path: t.string({ nullable: true, extensions: whenPresent("tag_path"), resolve: (view: SimpleView, _a, ctx) => full(view, releaseFacts(ctx, view).tagPath) }),
    assets: t.field({ type: ReleaseAssetsEntity, nullable: true, extensions: whenPresent("assets"), resolve: (view: SimpleView) => full(view, view) }),
    // evidence collection is not kept
    evidences: t.field({ type: ["JSON"], nullable: true, extensions: whenPresent("evidences"), resolve: (view: SimpleView) => full(view, view.downloadCode ? [] : null) }),
    _links: t.field({ type: ReleaseLinksEntity, nullable: true, extensions: whenPresent("_links"), resolve: (view: SimpleView) => full(view, view) }),
  }),
});

const ReleaseOrder = builder.enumType("ReleaseOrderBy", { values: ["released_at", "created_at"] as const });

const ReleaseLinkInput = builder.inputType("ReleaseAssetLinkInput", {
  fields: (t) => ({
    name: t.string({ required: false }),
    url: t.string({ required: false }),
    direct_asset_path: t.string({ required: false }),
    filepath: t.string({ required: false }),
    link_type: t.string({ required: false }),
  }),
});

const ReleaseAssetsInput = builder.inputType("ReleaseAssetsInput", {
  fields: (t) => ({ links: t.field({ type: [ReleaseLinkInput], required: false }) }),
});

const milestoneArgs = builder.args((t) => ({
  milestones: t.stringList({ required: false }),
  milestone_ids: t.stringList({ required: false }),
}));

const linkArgs = builder.args((t) => ({
  name: t.string({ required: false }),
  url: t.string({ required: false }),
  direct_asset_path: t.string({ required: false }),
  filepath: t.string({ required: false }),
  link_type: t.string({ required: false }),
}));

const linkViewOf = (found: FoundRelease) => (link: ReleaseLink): LinkView => ({ link, found });

/** Grape's redirect: 302 with the Location and its sentence. */
function redirectTo(ctx: Context, location: string): string {
  ctx.rest.status = 302;
  ctx.rest.headers = { ...ctx.rest.headers, Location: location };
  ctx.rest.answer = { message: `This resource has been moved temporarily to ${location}.` };
  return location;
}

builder.queryFields((t) => ({
  projectReleases: t.field({
    extensions: { rest: route.get("/projects/:id/releases") },
    type: [ReleaseEntity],
    args: {
      id: t.arg.id({ required: true }),
      order_by: t.arg({ type: ReleaseOrder, required: false }),
      sort: t.arg({ type: SortDirectionEnum, required: false }),
      updated_before: t.arg({ type: "DateTime", required: false }),
      updated_after: t.arg({ type: "DateTime", required: false }),
      include_html_description: t.arg.boolean({ required: false }),
      ...pageArgs,
    },
    resolve: async (_r, { id, page, per_page, include_html_description: _html, ...filters }, ctx) =>
      rowsOf(ctx, await listReleases(ctx, await findReleasesProject(ctx, String(id)), filters, { page, per_page })),
  }),
  projectRelease: t.field({
    extensions: { rest: route.get("/projects/:id/releases/:tag_name") },
    type: ReleaseEntity,
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }), include_html_description: t.arg.boolean({ required: false }) },
    resolve: async (_r, args, ctx) => releaseView(ctx, await findRelease(ctx, String(args.id), args.tag_name)),
  }),
  projectLatestRelease: t.string({
    extensions: { rest: route.get("/projects/:id/releases/permalink/latest") },
    description: "Redirects (302) to the latest release by released_at, with the query params but order_by.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const access = await findReleasesProject(ctx, String(args.id));
      requireReadCode(ctx, access);
      const latest = await latestRelease(ctx, access);
      if (!latest) throw notFound();
      const query = new URL(ctx.request.url).searchParams;
      query.delete("order_by");
      const search = query.toString();
      return redirectTo(ctx, `/api/v4/projects/${access.project.id}/releases/${encodeURIComponent(latest.tag)}${search ? `?${search}` : ""}`);
    },
  }),
  projectReleaseAssetDownload: t.string({
    extensions: { rest: route.get("/projects/:id/releases/:tag_name/downloads/*direct_asset_path") },
    description: "Redirects (302) to the URL of the release's link whose direct asset path is `/<direct_asset_path>` (one or more segments).",
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }), direct_asset_path: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const { link } = await findLinkByAssetPath(ctx, await findRelease(ctx, String(args.id), args.tag_name), args.direct_asset_path);
      return redirectTo(ctx, link.url);
    },
  }),
  groupReleases: t.field({
    extensions: { rest: route.get("/groups/:id/releases") },
    type: [ReleaseEntity],
    args: { id: t.arg.id({ required: true }), sort: t.arg({ type: SortDirectionEnum, required: false }), simple: t.arg.boolean({ required: false }), ...pageArgs },
    resolve: async (_r, { id, page, per_page, simple, sort }, ctx) => {
      const rows = rowsOf(ctx, await listGroupReleases(ctx, await findGroup(ctx, String(id)), { sort }, { page, per_page }));
      return simple ? rows.map((view): SimpleView => ({ ...view, simple: true })) : rows;
    },
  }),
  releaseLinks: t.field({
    extensions: { rest: route.get("/projects/:id/releases/:tag_name/assets/links") },
    type: [ReleaseLinkEntity],
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }), ...pageArgs },
    resolve: async (_r, { id, tag_name, page, per_page }, ctx) => {
      const found = await findReleaseOfLinks(ctx, String(id), tag_name);
      return rowsOf(ctx, await listLinks(ctx, found, { page, per_page })).map(linkViewOf(found));
    },
  }),
  releaseLink: t.field({
    extensions: { rest: route.get("/projects/:id/releases/:tag_name/assets/links/:link_id") },
    type: ReleaseLinkEntity,
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }), link_id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const found = await findLink(ctx, await findReleaseOfLinks(ctx, String(args.id), args.tag_name), args.link_id);
      return linkViewOf(found)(found.link);
    },
  }),
}));

builder.mutationFields((t) => ({
  createRelease: t.field({
    extensions: { rest: route.post("/projects/:id/releases") },
    type: ReleaseEntity,
    args: {
      id: t.arg.id({ required: true }),
      tag_name: t.arg.string({ required: true }),
      tag_message: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      ref: t.arg.string({ required: false }),
      assets: t.arg({ type: ReleaseAssetsInput, required: false }),
      released_at: t.arg.string({ required: false }),
      legacy_catalog_publish: t.arg.boolean({ required: false }),
      ...milestoneArgs,
    },
    resolve: async (_r, { id, legacy_catalog_publish: _catalog, ...input }, ctx) => {
      checkReleaseInput(input);
      return createRelease(ctx, await findProject(ctx, String(id)), input);
    },
  }),
  updateRelease: t.field({
    extensions: { rest: route.put("/projects/:id/releases/:tag_name") },
    type: ReleaseEntity,
    args: {
      id: t.arg.id({ required: true }),
      tag_name: t.arg.string({ required: true }),
      name: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      released_at: t.arg.string({ required: false }),
      ...milestoneArgs,
    },
    resolve: async (_r, { id, tag_name, ...input }, ctx) => {
      checkReleaseInput(input);
      return updateRelease(ctx, await findReleaseToWrite(ctx, String(id), tag_name), input);
    },
  }),
  deleteRelease: t.field({
    extensions: { rest: route.del("/projects/:id/releases/:tag_name", { status: 200 }) },
    type: ReleaseEntity,
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => deleteRelease(ctx, await findReleaseToWrite(ctx, String(args.id), args.tag_name)),
  }),
  createReleaseLink: t.field({
    extensions: { rest: route.post("/projects/:id/releases/:tag_name/assets/links") },
    type: ReleaseLinkEntity,
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }), ...linkArgs },
    resolve: async (_r, { id, tag_name, ...input }, ctx) => {
      checkLinkInput(input);
      if (input.name == null) throw paramError("name is missing");
      if (input.url == null) throw paramError("url is missing");
      const found = await findReleaseOfLinks(ctx, String(id), tag_name);
      return linkViewOf(found)(await createLink(ctx, found, input));
    },
  }),
  updateReleaseLink: t.field({
    extensions: { rest: route.put("/projects/:id/releases/:tag_name/assets/links/:link_id") },
    type: ReleaseLinkEntity,
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }), link_id: t.arg.int({ required: true }), ...linkArgs },
    resolve: async (_r, { id, tag_name, link_id, ...input }, ctx) => {
      checkLinkUpdate(input);
      const found = await findLink(ctx, await findReleaseOfLinks(ctx, String(id), tag_name), link_id);
      return linkViewOf(found)(await updateLink(ctx, found, input));
    },
  }),
  deleteReleaseLink: t.field({
    extensions: { rest: route.del("/projects/:id/releases/:tag_name/assets/links/:link_id", { status: 200 }) },
    type: ReleaseLinkEntity,
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }), link_id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const found = await findLink(ctx, await findReleaseOfLinks(ctx, String(args.id), args.tag_name), args.link_id);
      return linkViewOf(found)(await deleteLink(ctx, found));
    },
  }),
}));

