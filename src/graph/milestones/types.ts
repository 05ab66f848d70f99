// Milestones in the graph (GitLab's Milestone type): Project.milestones and Group.milestones
// (with includeAncestors, the state and a title search), and the milestone of an issue or a merge
// request, read through the domain's milestone list and lookup.
import type { Milestone } from "../../generated/prisma/client.js";
import { listMilestones } from "../../domain/milestones/lists.js";
import { milestoneLoader } from "../../domain/milestones/loaders.js";
import { isExpired, milestoneWebUrl } from "../../domain/milestones/presenter.js";
import { findMilestoneById } from "../../domain/milestones/queries.js";
import { canReadMilestones } from "../../domain/milestones/rules.js";
import { shownGroupAccess, shownProjectAccess, type GroupOrProjectAccess } from "../../domain/shared/parents.js";
import type { Context } from "../../context.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { registerNodeLoader } from "../shared/node.js";
import { GroupRef } from "../groups/types.js";
import { IssueRef } from "../issues/types.js";
import { MergeRequestRef } from "../merge-requests/types.js";
import { ProjectRef } from "../projects/types.js";

export const MilestoneRef = builder.objectRef<Milestone>("Milestone");
const MilestoneStateEnum = builder.enumType("MilestoneStateEnum", { values: ["active", "closed"] as const });

builder.node(MilestoneRef, {
  description: "A milestone of a project or a group.",
  id: { resolve: (milestone) => milestone.id },
  fields: (t) => ({
    iid: t.string({ resolve: (milestone) => String(milestone.iid) }),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    state: t.field({ type: MilestoneStateEnum, resolve: (milestone) => milestone.state as "active" | "closed" }),
    dueDate: t.string({ nullable: true, description: "YYYY-MM-DD", resolve: (milestone) => milestone.dueDate }),
    startDate: t.string({ nullable: true, description: "YYYY-MM-DD", resolve: (milestone) => milestone.startDate }),
    expired: t.boolean({ resolve: (milestone, _a, ctx) => isExpired(ctx, milestone) }),
    projectMilestone: t.boolean({ resolve: (milestone) => milestone.projectId !== null }),
    groupMilestone: t.boolean({ resolve: (milestone) => milestone.groupId !== null }),
    webUrl: t.string({ resolve: (milestone, _a, ctx) => milestoneWebUrl(ctx, milestone) }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    updatedAt: t.expose("updatedAt", { type: "Time" }),
  }),
});

export const MilestoneConnection = countedConnection(MilestoneRef, "Milestone");

const milestonesField = (t: any, shown: (ctx: Context, parent: any) => Promise<GroupOrProjectAccess>) =>
  t.connection(
    {
      type: MilestoneRef,
      description: "Milestones, earliest due date first; with includeAncestors those of the groups above too.",
      args: {
        state: t.arg({ type: MilestoneStateEnum }),
        includeAncestors: t.arg.boolean({ defaultValue: false }),
        searchTitle: t.arg.string({ description: "Title or description contains this." }),
        title: t.arg.string({ description: "Exactly this title." }),
      },
      resolve: async (parent: any, args: any, ctx: Context) => {
        const access = await shown(ctx, parent);
        // a parent whose milestones the caller may not read shows none
        if (!canReadMilestones(ctx, access)) return offsetConnection(args, async () => ({ rows: [], info: { page: 1, perPage: 0, total: 0, hasNext: false, hasPrev: false } }));
        const filters = { state: args.state ?? "all", include_ancestors: args.includeAncestors, search: args.searchTitle, title: args.title };
        return offsetConnection(args, (page) => listMilestones(ctx, access, filters, page));
      },
    },
    MilestoneConnection,
  );

builder.objectFields(ProjectRef, (t) => ({ milestones: milestonesField(t, shownProjectAccess) }));
builder.objectFields(GroupRef, (t) => ({ milestones: milestonesField(t, shownGroupAccess) }));

const milestoneOf = (ctx: Context, id: number | null) => (id == null ? null : ctx.loaders.get(milestoneLoader).load(id));

builder.objectFields(IssueRef, (t) => ({
  milestone: t.field({ type: MilestoneRef, nullable: true, resolve: (issue, _a, ctx) => milestoneOf(ctx, issue.milestoneId) }),
}));
builder.objectFields(MergeRequestRef, (t) => ({
  milestone: t.field({ type: MilestoneRef, nullable: true, resolve: (mr, _a, ctx) => milestoneOf(ctx, mr.milestoneId) }),
}));

registerNodeLoader("Milestone", MilestoneRef, async (ctx, id) => (await findMilestoneById(ctx, id)).milestone);
