// Project and group milestones (GitLab's ProjectMilestones and GroupMilestones APIs): the list with
// GitLab's filters, one milestone, create, update (state_event close / activate), delete, and the
// milestone's issues and merge requests, each through one domain function.
import type { Milestone } from "../generated/prisma/client.js";
import type { Context } from "../context.js";
import { listGroupIssues, listProjectIssues, projectIssueFilters } from "../domain/issues/lists.js";
import { listGroupMergeRequests, listProjectMergeRequests } from "../domain/merge-requests/lists.js";
import { checkMilestoneFilters, listMilestones, MILESTONE_STATES } from "../domain/milestones/lists.js";
import { milestoneEntity, type MilestoneEntity } from "../domain/milestones/presenter.js";
import { findMilestone, findMilestoneToAdminister } from "../domain/milestones/queries.js";
import { promoteMilestone } from "../domain/milestones/promote.js";
import { checkMilestoneChanges, createMilestone, deleteMilestone, updateMilestone } from "../domain/milestones/writes.js";
import { findGroup, findProject, type GroupAccess, type GroupOrProjectAccess, type ProjectAccess } from "../domain/shared/parents.js";
import { builder } from "./builder.js";
import { IssueEntity } from "./issues.js";
import { MergeRequestEntity } from "./merge-requests.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

/** Entities::Milestone's fields: project_id or group_id, whichever the milestone belongs to (the other left out). */
export type MilestoneFields = PothosSchemaTypes.ObjectFieldBuilder<any, MilestoneEntity>;
export const milestoneEntityFields = (t: MilestoneFields) => ({
  id: t.exposeInt("id"),
  iid: t.exposeInt("iid"),
  project_id: t.int({ nullable: true, extensions: { restIf: "project_id" }, resolve: (m: MilestoneEntity) => m.project_id ?? null }),
  group_id: t.int({ nullable: true, extensions: { restIf: "group_id" }, resolve: (m: MilestoneEntity) => m.group_id ?? null }),
  title: t.exposeString("title"),
  description: t.exposeString("description", { nullable: true }),
  state: t.exposeString("state"),
  created_at: t.exposeString("created_at"),
  updated_at: t.exposeString("updated_at"),
  due_date: t.exposeString("due_date", { nullable: true }),
  start_date: t.exposeString("start_date", { nullable: true }),
  expired: t.exposeBoolean("expired"),
  web_url: t.exposeString("web_url"),
});

/** Entities::Milestone. */
export const MilestoneRestEntity = builder.objectRef<MilestoneEntity>("Milestone").implement({ fields: (t) => milestoneEntityFields(t) });

const MilestoneStateFilter = builder.enumType("MilestoneStateFilter", { values: MILESTONE_STATES });
const MilestoneStateEvent = builder.enumType("MilestoneStateEvent", { values: ["close", "activate"] as const });

const listArgs = builder.args((t) => ({
  state: t.field({ type: MilestoneStateFilter, required: false }),
  iids: t.intList({ required: false }),
  title: t.string({ required: false }),
  search: t.string({ required: false }),
  include_parent_milestones: t.boolean({ required: false }),
  include_ancestors: t.boolean({ required: false }),
  updated_before: t.field({ type: "DateTime", required: false }),
  updated_after: t.field({ type: "DateTime", required: false }),
  ...pageArgs,
}));

const valueArgs = builder.args((t) => ({
  description: t.string({ required: false }),
  due_date: t.string({ required: false }),
  start_date: t.string({ required: false }),
}));

const present = (ctx: Context, milestone: Milestone) => milestoneEntity(ctx, milestone);
const presentAll = (ctx: Context, milestones: Milestone[]) => Promise.all(milestones.map((m) => present(ctx, m)));

const PARENTS = [
  { name: "project", path: "projects", find: findProject },
  { name: "group", path: "groups", find: findGroup },
] as const;

type Finder = (ctx: Context, id: string) => Promise<GroupOrProjectAccess>;

for (const parent of PARENTS) {
  const find = parent.find as Finder;
  const base = `/${parent.path}/:id/milestones`;
  const signedIn = "authenticated" as const;
  const idArgs = builder.args((t) => ({ id: t.id({ required: true }), milestone_id: t.int({ required: true }) }));
  builder.queryFields((t) => ({
    [`${parent.name}Milestones`]: t.field({
      type: [MilestoneRestEntity],
      extensions: { rest: route.get(base), access: signedIn },
      args: { id: t.arg.id({ required: true }), ...listArgs },
      resolve: async (_r, { id, page, per_page, ...filters }, ctx) => {
        const checked = checkMilestoneFilters(filters);
        return presentAll(ctx, rowsOf(ctx, await listMilestones(ctx, await find(ctx, String(id)), checked, { page, per_page })));
      },
    }),
    [`${parent.name}Milestone`]: t.field({
      type: MilestoneRestEntity,
      extensions: { rest: route.get(`${base}/:milestone_id`), access: signedIn },
      args: idArgs,
      resolve: async (_r, args, ctx) => present(ctx, (await findMilestone(ctx, await find(ctx, String(args.id)), args.milestone_id)).milestone),
    }),
    [`${parent.name}MilestoneIssues`]: t.prismaField({
      type: [IssueEntity],
      extensions: { rest: route.get(`${base}/:milestone_id/issues`), access: signedIn },
      args: { ...idArgs, ...pageArgs },
      resolve: async (_q, _r, { id, milestone_id, page, per_page }, ctx) => {
        const { parent: found, milestone } = await findMilestone(ctx, await find(ctx, String(id)), milestone_id);
        const filters = projectIssueFilters({ milestone: milestone.title });
        const listed = "group" in found
          ? await listGroupIssues(ctx, found as GroupAccess, filters, { page, per_page })
          : await listProjectIssues(ctx, found as ProjectAccess, filters, { page, per_page });
        return rowsOf(ctx, listed);
      },
    }),
    [`${parent.name}MilestoneMergeRequests`]: t.prismaField({
      type: [MergeRequestEntity],
      extensions: { rest: route.get(`${base}/:milestone_id/merge_requests`), access: signedIn },
      args: { ...idArgs, ...pageArgs },
      resolve: async (_q, _r, { id, milestone_id, page, per_page }, ctx) => {
        const { parent: found, milestone } = await findMilestone(ctx, await find(ctx, String(id)), milestone_id);
        const filters = { milestone: milestone.title };
        const listed = "group" in found
          ? await listGroupMergeRequests(ctx, found as GroupAccess, filters, { page, per_page })
          : await listProjectMergeRequests(ctx, found as ProjectAccess, filters, { page, per_page });
        return rowsOf(ctx, listed);
      },
    }),
  }));
  builder.mutationFields((t) => ({
    [`create${capitalized(parent.name)}Milestone`]: t.field({
      type: MilestoneRestEntity,
      extensions: { rest: route.post(base), access: signedIn },
      args: { id: t.arg.id({ required: true }), title: t.arg.string({ required: true }), ...valueArgs },
      resolve: async (_r, { id, ...input }, ctx) => present(ctx, await createMilestone(ctx, await find(ctx, String(id)), input)),
    }),
    [`update${capitalized(parent.name)}Milestone`]: t.field({
      type: MilestoneRestEntity,
      extensions: { rest: route.put(`${base}/:milestone_id`), access: signedIn },
      args: { ...idArgs, title: t.arg.string({ required: false }), state_event: t.arg({ type: MilestoneStateEvent, required: false }), ...valueArgs },
      resolve: async (_r, { id, milestone_id, ...input }, ctx) => {
        checkMilestoneChanges(input);
        const access = await find(ctx, String(id));
        const found = await findMilestoneToAdminister(ctx, access, milestone_id);
        return present(ctx, await updateMilestone(ctx, found, input));
      },
    }),
    [`delete${capitalized(parent.name)}Milestone`]: t.boolean({
      extensions: { rest: route.del(`${base}/:milestone_id`), access: signedIn },
      args: idArgs,
      resolve: async (_r, { id, milestone_id }, ctx) => {
        await deleteMilestone(ctx, await findMilestoneToAdminister(ctx, await find(ctx, String(id)), milestone_id));
        return true;
      },
    }),
  }));
}

builder.mutationFields((t) => ({
  promoteProjectMilestone: t.int({
    description: "GitLab answers the status itself as the body.",
    extensions: {
      rest: route.post("/projects/:id/milestones/:milestone_id/promote", {
        status: 200,
        otherAnswers: [{ status: 400, description: "The group already has a milestone of that title in its hierarchy (Promotion failed - ...)." }],
      }),
      access: "authenticated",
    },
    args: { id: t.arg.id({ required: true }), milestone_id: t.arg.int({ required: true }) },
    resolve: async (_r, { id, milestone_id }, ctx) => {
      await promoteMilestone(ctx, await findProject(ctx, String(id)), milestone_id);
      return 200;
    },
  }),
}));

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
