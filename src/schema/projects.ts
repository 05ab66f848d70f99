import type { Context } from "../context.js";
import type { Project } from "../generated/prisma/client.js";
import { FEATURE_ACCESS_LEVELS } from "../domain/shared/project-features.js";
import { MERGE_METHODS, SQUASH_OPTIONS } from "../domain/projects/merge-settings.js";
import { projectPermissions } from "../domain/shared/memberships.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { sshUrlToRepo } from "../domain/repository/urls.js";
import { createProject, updateProject } from "../domain/projects/writes.js";
import { listGroupProjects, listProjects, listProjectsKeyset, PROJECT_ORDER_COLUMNS, type ProjectWithNamespace } from "../domain/projects/lists.js";
import { transferProject } from "../domain/projects/transfer.js";
import { projectFullPath, projectWebUrl } from "../domain/shared/web-urls.js";
import { builder } from "./builder.js";
import { namespaceFullName, NamespaceBasic, VisibilityEnum } from "./namespaces.js";
import { keysetArgs, pageArgs, rowsOf } from "./pagination.js";
import { UserBasic } from "./users.js";
import { projectTopicNamesLoader } from "../domain/topics/assignments.js";
import { repositoryFactsLoader } from "../domain/repository/facts.js";
import { userLoader } from "../domain/shared/loaders.js";
import * as route from "../rest/route.js";
import { projectSharedWithGroups } from "../domain/sharing/presenter.js";
import { SharedGroupEntity } from "./shared-groups.js";


// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fields = PothosSchemaTypes.PrismaObjectFieldBuilder<any, any, any>;

/** GitLab's Project entity fields (lists); ProjectDetail adds `permissions`. */
const projectFields = (t: Fields) => ({
  id: t.exposeInt("id"),
  description: t.exposeString("description", { nullable: true }),
  name: t.exposeString("name"),
  name_with_namespace: t.string({
    resolve: async (p: ProjectWithNamespace, _a: unknown, ctx: Context) => `${await namespaceFullName(ctx, p.namespace)} / ${p.name}`,
  }),
  path: t.exposeString("path"),
  path_with_namespace: t.string({ resolve: (p: ProjectWithNamespace) => projectFullPath(p) }),
  created_at: t.expose("createdAt", { type: "DateTime" }),
  updated_at: t.expose("updatedAt", { type: "DateTime" }),
  last_activity_at: t.expose("lastActivityAt", { type: "DateTime" }),
  default_branch: t.exposeString("defaultBranch"),
  visibility: t.exposeString("visibility"),
  archived: t.exposeBoolean("archived"),
  creator_id: t.exposeInt("creatorId", { nullable: true }),
  topics: t.stringList({ resolve: (p: ProjectWithNamespace, _a: unknown, ctx: Context) => ctx.loaders.get(projectTopicNamesLoader).load(p.id) }),
  tag_list: t.stringList({ resolve: (p: ProjectWithNamespace, _a: unknown, ctx: Context) => ctx.loaders.get(projectTopicNamesLoader).load(p.id) }),
  ssh_url_to_repo: t.string({ resolve: (p: ProjectWithNamespace, _a: unknown, ctx: Context) => sshUrlToRepo(ctx, projectFullPath(p)) }),
  http_url_to_repo: t.string({ resolve: (p: ProjectWithNamespace, _a: unknown, ctx: Context) => `${projectWebUrl(ctx, p)}.git` }),
  web_url: t.string({ resolve: (p: ProjectWithNamespace, _a: unknown, ctx: Context) => projectWebUrl(ctx, p) }),
  readme_url: t.string({
    nullable: true,
    resolve: async (p: ProjectWithNamespace, _a: unknown, ctx: Context) => {
      const { readmePath } = await ctx.loaders.get(repositoryFactsLoader).load(p);
      return readmePath ? `${projectWebUrl(ctx, p)}/-/blob/${p.defaultBranch}/${readmePath}` : null;
    },
  }),
  avatar_url: t.string({ nullable: true, resolve: () => null }),
  forks_count: t.int({ resolve: () => 0 }),
  star_count: t.int({ resolve: () => 0 }),
  empty_repo: t.boolean({ resolve: async (p: Project, _a: unknown, ctx: Context) => (await ctx.loaders.get(repositoryFactsLoader).load(p)).empty }),
  issues_enabled: t.boolean({ resolve: (p: Project) => p.issuesAccessLevel !== "disabled" }),
  merge_requests_enabled: t.boolean({ resolve: (p: Project) => p.mergeRequestsAccessLevel !== "disabled" }),
  snippets_enabled: t.boolean({ resolve: (p: Project) => p.snippetsAccessLevel !== "disabled" }),
  issues_access_level: t.exposeString("issuesAccessLevel"),
  merge_requests_access_level: t.exposeString("mergeRequestsAccessLevel"),
  snippets_access_level: t.exposeString("snippetsAccessLevel"),
  repository_access_level: t.exposeString("repositoryAccessLevel"),
  merge_method: t.exposeString("mergeMethod"),
  squash_option: t.exposeString("squashOption"),
  merge_commit_template: t.exposeString("mergeCommitTemplate", { nullable: true }),
  squash_commit_template: t.exposeString("squashCommitTemplate", { nullable: true }),
  only_allow_merge_if_all_discussions_are_resolved: t.exposeBoolean("onlyAllowMergeIfAllDiscussionsAreResolved"),
  shared_with_groups: t.field({
    type: [SharedGroupEntity],
    resolve: (p: ProjectWithNamespace, _a: unknown, ctx: Context) => projectSharedWithGroups(ctx, p),
  }),
  namespace: t.field({ type: NamespaceBasic, resolve: (p: ProjectWithNamespace) => p.namespace }),
  owner: t.field({
    type: UserBasic,
    nullable: true,
    resolve: (p: ProjectWithNamespace, _a: unknown, ctx: Context) => (p.namespace.ownerId ? ctx.loaders.get(userLoader).load(p.namespace.ownerId) : null),
  }),
});

export const ProjectEntity = builder.prismaObject("Project", {
  name: "Project",
  fields: (t) => projectFields(t as Fields),
});

const AccessLevelInfo = builder.objectRef<{ access_level: number }>("ProjectAccessLevel").implement({
  fields: (t) => ({
    access_level: t.exposeInt("access_level"),
    notification_level: t.int({ resolve: () => 3 }),
  }),
});

const Permissions = builder.objectRef<{ project: number; group: number }>("ProjectPermissions").implement({
  fields: (t) => ({
    project_access: t.field({ type: AccessLevelInfo, nullable: true, resolve: (p) => (p.project ? { access_level: p.project } : null) }),
    group_access: t.field({ type: AccessLevelInfo, nullable: true, resolve: (p) => (p.group ? { access_level: p.group } : null) }),
  }),
});

export const ProjectDetail = builder.prismaObject("Project", {
  variant: "ProjectDetail",
  fields: (t) => ({
    ...projectFields(t as Fields),
    permissions: t.field({
      type: Permissions,
        resolve: (p, _a, ctx) => projectPermissions(ctx, p as ProjectWithNamespace),
    }),
  }),
});

const ProjectOrderBy = builder.enumType("ProjectOrderBy", { values: PROJECT_ORDER_COLUMNS });

export const projectFilterArgs = builder.args((t) => ({
  search: t.string({ required: false }),
  visibility: t.field({ type: VisibilityEnum, required: false }),
  membership: t.boolean({ required: false }),
  owned: t.boolean({ required: false }),
  archived: t.boolean({ required: false }),
  min_access_level: t.int({ required: false }),
  topic: t.stringList({ required: false }),
  topic_id: t.int({ required: false }),
  order_by: t.field({ type: ProjectOrderBy, required: false }),
  id_after: t.int({ required: false }),
  id_before: t.int({ required: false }),
}));

const FeatureAccessLevelEnum = builder.enumType("ProjectFeatureAccessLevel", { values: FEATURE_ACCESS_LEVELS });

const MergeMethodEnum = builder.enumType("ProjectMergeMethod", { values: MERGE_METHODS });
const SquashOptionEnum = builder.enumType("ProjectSquashOption", { values: SQUASH_OPTIONS });

const projectInputArgs = builder.args((t) => ({
  name: t.string({ required: false }),
  path: t.string({ required: false }),
  description: t.string({ required: false }),
  visibility: t.field({ type: VisibilityEnum, required: false }),
  default_branch: t.string({ required: false }),
  topics: t.stringList({ required: false }),
  tag_list: t.stringList({ required: false }),
  // project features; the `<feature>_enabled` booleans are GitLab's deprecated forms
  issues_access_level: t.field({ type: FeatureAccessLevelEnum, required: false }),
  merge_requests_access_level: t.field({ type: FeatureAccessLevelEnum, required: false }),
  snippets_access_level: t.field({ type: FeatureAccessLevelEnum, required: false }),
  repository_access_level: t.field({ type: FeatureAccessLevelEnum, required: false }),
  issues_enabled: t.boolean({ required: false }),
  merge_requests_enabled: t.boolean({ required: false }),
  snippets_enabled: t.boolean({ required: false }),
  merge_method: t.field({ type: MergeMethodEnum, required: false }),
  squash_option: t.field({ type: SquashOptionEnum, required: false }),
  merge_commit_template: t.string({ required: false }),
  squash_commit_template: t.string({ required: false }),
  only_allow_merge_if_all_discussions_are_resolved: t.boolean({ required: false }),
}));

builder.queryFields((t) => ({
  projects: t.prismaField({
    extensions: { rest: route.get("/projects") },
    type: [ProjectEntity],
    args: { ...pageArgs, ...keysetArgs, ...projectFilterArgs },
    resolve: async (_query, _r, { pagination, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, pagination === "keyset" ? await listProjectsKeyset(ctx, filters, { per_page }) : await listProjects(ctx, filters, { page, per_page })),
  }),
  project: t.prismaField({
    extensions: { rest: route.get("/projects/:id") },
    type: ProjectDetail,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_q, _r, args, ctx) => (await findProject(ctx, String(args.id))).project,
  }),
  groupProjects: t.prismaField({
    extensions: { rest: route.get("/groups/:id/projects") },
    type: [ProjectEntity],
    args: { id: t.arg.id({ required: true }), include_subgroups: t.arg.boolean({ required: false }), ...pageArgs, ...keysetArgs, ...projectFilterArgs },
    resolve: async (_query, _r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listGroupProjects(ctx, await findGroup(ctx, String(id)), filters, { page, per_page })),
  }),
}));

builder.mutationFields((t) => ({
  createProject: t.prismaField({
    type: ProjectDetail,
    extensions: { rest: route.post("/projects"), access: "authenticated" },
    args: { ...projectInputArgs, namespace_id: t.arg.id({ required: false }), initialize_with_readme: t.arg.boolean({ required: false }) },
    resolve: (_q, _r, args, ctx) => createProject(ctx, { ...args, namespace_id: args.namespace_id == null ? null : String(args.namespace_id) }),
  }),
  updateProject: t.prismaField({
    type: ProjectDetail,
    extensions: { rest: route.put("/projects/:id"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), ...projectInputArgs, archived: t.arg.boolean({ required: false }) },
    resolve: async (_q, _r, args, ctx) => updateProject(ctx, await findProject(ctx, String(args.id)), args),
  }),
  transferProject: t.prismaField({
    type: ProjectDetail,
    extensions: { rest: route.put("/projects/:id/transfer"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), namespace: t.arg.id({ required: true }) },
    resolve: async (_q, _r, args, ctx) => transferProject(ctx, await findProject(ctx, String(args.id)), String(args.namespace)),
  }),
}));
