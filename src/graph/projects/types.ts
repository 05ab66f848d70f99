// Projects: `project(fullPath:)`, the project node and its members. Issues and merge requests
// add their connections on Project in issues.ts and merge-requests/queries.ts.
import type { Context } from "../../context.js";
import { findProject, shownProjectAccess } from "../../domain/shared/parents.js";
import { listAllMembers } from "../../domain/members/lists.js";
import { type ProjectWithNamespace } from "../../domain/projects/lists.js";
import { projectFullPath, projectWebUrl } from "../../domain/shared/web-urls.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { byFullPath, GroupRef, NamespaceRef } from "../groups/types.js";
import { ProjectMemberConnection, ProjectMemberRef } from "../members/types.js";
import { registerNodeLoader } from "../shared/node.js";
import { projectTopicNamesLoader } from "../../domain/topics/assignments.js";

export const ProjectRef = builder.objectRef<ProjectWithNamespace>("Project");

builder.node(ProjectRef, {
  description: "A project.",
  id: { resolve: (project) => project.id },
  fields: (t) => ({
    name: t.exposeString("name"),
    path: t.exposeString("path"),
    fullPath: t.string({ resolve: (project) => projectFullPath(project) }),
    nameWithNamespace: t.string({ resolve: (project) => `${project.namespace.name} / ${project.name}` }),
    description: t.exposeString("description", { nullable: true }),
    visibility: t.exposeString("visibility"),
    archived: t.exposeBoolean("archived"),
    webUrl: t.string({ resolve: (project, _a, ctx) => projectWebUrl(ctx, project) }),
    avatarUrl: t.string({ nullable: true, description: "Always null: Forgeline keeps no project avatars (REST's avatar_url is null too).", resolve: () => null }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    lastActivityAt: t.expose("lastActivityAt", { type: "Time" }),
    mergeMethod: t.exposeString("mergeMethod", { description: "merge, rebase_merge or ff (REST's merge_method)." }),
    squashOption: t.exposeString("squashOption", { description: "never, always, default_on or default_off (REST's squash_option)." }),
    mergeCommitTemplate: t.exposeString("mergeCommitTemplate", { nullable: true }),
    squashCommitTemplate: t.exposeString("squashCommitTemplate", { nullable: true }),
    onlyAllowMergeIfAllDiscussionsAreResolved: t.exposeBoolean("onlyAllowMergeIfAllDiscussionsAreResolved"),
    topics: t.stringList({ resolve: (project, _a, ctx) => ctx.loaders.get(projectTopicNamesLoader).load(project.id) }),
    namespace: t.field({ type: NamespaceRef, resolve: (project) => project.namespace }),
    group: t.field({
      type: GroupRef,
      nullable: true,
      description: "The group the project is in; null for a personal project or a group hidden from the caller.",
      resolve: (project) => (project.namespace.kind === "group" ? project.namespace : null),
    }),
    projectMembers: t.connection(
      {
        type: ProjectMemberRef,
        description: "Direct members and those inherited from the project's groups.",
        args: { search: t.arg.string() },
        resolve: async (project, args, ctx) => {
          const parent = await shownProjectAccess(ctx, project);
          return offsetConnection(args, (page) => listAllMembers(ctx, parent, { query: args.search }, page));
        },
      },
      ProjectMemberConnection,
    ),
  }),
});

export const ProjectConnection = countedConnection(ProjectRef, "Project");

/** A project the caller can see, by id or full path (cached between requests: domain/shared/caches.ts). */
export async function projectOf(ctx: Context, ref: string | number): Promise<ProjectWithNamespace> {
  return (await findProject(ctx, ref)).project;
}

registerNodeLoader("Project", ProjectRef, (ctx, id) => projectOf(ctx, id));

builder.queryFields((t) => ({
  project: t.field({
    type: ProjectRef,
    nullable: true,
    args: { fullPath: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => byFullPath(args.fullPath, (path) => projectOf(ctx, path)),
  }),
}));
