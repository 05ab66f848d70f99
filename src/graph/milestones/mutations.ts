// milestoneCreate, milestoneUpdate and milestoneDelete (Forgeline extensions: GitLab's graph has no
// milestone writes), mirroring the REST params: a project's or a group's milestone, named by
// `projectPath` or `groupPath`, then by its global id.
import { GraphQLError } from "graphql";
import type { Context } from "../../context.js";
import { findMilestoneToAdminister } from "../../domain/milestones/queries.js";
import { checkMilestoneChanges, createMilestone, deleteMilestone, updateMilestone } from "../../domain/milestones/writes.js";
import { findGroupToWrite, findProjectToWrite, type GroupOrProjectAccess } from "../../domain/shared/parents.js";
import { builder } from "../shared/builder.js";
import { idOfGid } from "../shared/ids.js";
import { groupPathOf, projectPathOf } from "../shared/mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../shared/payload-mutation.js";
import { MilestoneRef } from "./types.js";

const parentFields = (t: PayloadInputFieldBuilder) => ({
  projectPath: t.id({ description: "Full path of the project (or give groupPath)." }),
  groupPath: t.id({ description: "Full path of the group (or give projectPath)." }),
});

const valueFields = (t: PayloadInputFieldBuilder) => ({
  description: t.string(),
  startDate: t.string({ description: "YYYY-MM-DD (anything else: none)." }),
  dueDate: t.string({ description: "YYYY-MM-DD, after the start date (anything else: none)." }),
});

const MilestoneStateEventEnum = builder.enumType("MilestoneStateEvent", { values: ["close", "activate"] as const });

/** The one parent the input names, found for a write (signed in first). */
async function parentOf(ctx: Context, input: { projectPath?: string | number | null; groupPath?: string | number | null }): Promise<GroupOrProjectAccess> {
  if ((input.projectPath == null) === (input.groupPath == null)) throw new GraphQLError("Exactly one of group_path or project_path arguments is required");
  return input.projectPath != null ? findProjectToWrite(ctx, projectPathOf(input.projectPath)) : findGroupToWrite(ctx, groupPathOf(input.groupPath!));
}

const milestoneIdOf = (id: string | number) => idOfGid(String(id), "Milestone") ?? -1;

payloadMutation("milestoneCreate", {
  description: "Creates a milestone in a project or a group (Planners, Reporters and above).",
  inputFields: (t) => ({ ...parentFields(t), title: t.string({ required: true }), ...valueFields(t) }),
  write: async (input, ctx) =>
    createMilestone(ctx, await parentOf(ctx, input), { title: input.title, description: input.description, start_date: input.startDate, due_date: input.dueDate }),
  returns: { field: "milestone", type: MilestoneRef },
});

payloadMutation("milestoneUpdate", {
  description: "Changes a milestone of a project or a group, or closes (close) or reopens (activate) it.",
  inputFields: (t) => ({
    ...parentFields(t),
    id: t.id({ required: true, description: "The milestone's global id." }),
    title: t.string(),
    ...valueFields(t),
    stateEvent: t.field({ type: MilestoneStateEventEnum }),
  }),
  write: async (input, ctx) => {
    const changes = { title: input.title, description: input.description, start_date: input.startDate, due_date: input.dueDate, state_event: input.stateEvent };
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    checkMilestoneChanges(given);
    const found = await findMilestoneToAdminister(ctx, await parentOf(ctx, input), milestoneIdOf(input.id));
    return updateMilestone(ctx, found, given);
  },
  returns: { field: "milestone", type: MilestoneRef },
});

payloadMutation("milestoneDelete", {
  description: "Deletes a milestone; its issues and merge requests lose it.",
  inputFields: (t) => ({ ...parentFields(t), id: t.id({ required: true, description: "The milestone's global id." }) }),
  write: async (input, ctx) => {
    const found = await findMilestoneToAdminister(ctx, await parentOf(ctx, input), milestoneIdOf(input.id));
    await deleteMilestone(ctx, found);
    return found.milestone;
  },
  returns: { field: "milestone", type: MilestoneRef },
});
