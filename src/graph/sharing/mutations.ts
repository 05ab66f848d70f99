// projectShare / projectUnshare and groupShare / groupUnshare (Forgeline extensions mirroring REST
// POST/DELETE /projects/:id/share and /groups/:id/share, on the same domain rules).
import { findGroup, findGroupToWrite, findProjectToWrite } from "../../domain/shared/parents.js";
import { checkShareInput } from "../../domain/sharing/rules.js";
import { shareGroup, shareProject, unshareGroup, unshareProject } from "../../domain/sharing/writes.js";
import { GroupRef } from "../groups/types.js";
import { ProjectRef } from "../projects/types.js";
import { groupPathOf, projectPathOf } from "../shared/mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../shared/payload-mutation.js";

const shareFields = (t: PayloadInputFieldBuilder) => ({
  groupPath: t.id({ required: true, description: "Full path of the group to share with." }),
  accessLevel: t.int({ required: true, description: "The most its members get: 10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner." }),
  expiresAt: t.string({ description: "YYYY-MM-DD: the share ends that day." }),
});

/** The REST params of a share, the group named by its path. */
async function shareInput(ctx: Parameters<typeof findGroup>[0], input: { groupPath: string | number; accessLevel: number; expiresAt?: string | null }) {
  const params = { group_id: 0, group_access: input.accessLevel, expires_at: input.expiresAt };
  checkShareInput(params);
  const sharedWith = await findGroup(ctx, groupPathOf(input.groupPath));
  return { sharedWith, params: { ...params, group_id: sharedWith.group.id } };
}

payloadMutation("projectShare", {
  description: "Shares a project with a group (Maintainers; as Owner: Owners).",
  inputFields: (t) => ({ projectPath: t.id({ required: true }), ...shareFields(t) }),
  write: async (input, ctx) => {
    const access = await findProjectToWrite(ctx, projectPathOf(input.projectPath));
    const { params } = await shareInput(ctx, input);
    await shareProject(ctx, access, params);
    return access.project;
  },
  returns: { field: "project", type: ProjectRef },
});

payloadMutation("projectUnshare", {
  description: "Ends a project's share with a group (Maintainers).",
  inputFields: (t) => ({ projectPath: t.id({ required: true }), groupPath: t.id({ required: true }) }),
  write: async (input, ctx) => {
    const access = await findProjectToWrite(ctx, projectPathOf(input.projectPath));
    await unshareProject(ctx, access, (await findGroup(ctx, groupPathOf(input.groupPath))).group.id);
    return access.project;
  },
  returns: { field: "project", type: ProjectRef },
});

payloadMutation("groupShare", {
  description: "Shares a group with another group (the shared group's Owners); the other group's direct members get access.",
  inputFields: (t) => ({ fullPath: t.id({ required: true, description: "Full path of the group to share." }), ...shareFields(t) }),
  write: async (input, ctx) => {
    const shared = await findGroupToWrite(ctx, groupPathOf(input.fullPath));
    const { sharedWith, params } = await shareInput(ctx, input);
    await shareGroup(ctx, shared, sharedWith, params);
    return shared.group;
  },
  returns: { field: "group", type: GroupRef },
});

payloadMutation("groupUnshare", {
  description: "Ends a group's share with another group (the shared group's Owners).",
  inputFields: (t) => ({ fullPath: t.id({ required: true }), groupPath: t.id({ required: true }) }),
  write: async (input, ctx) => {
    const shared = await findGroupToWrite(ctx, groupPathOf(input.fullPath));
    await unshareGroup(ctx, shared, (await findGroup(ctx, groupPathOf(input.groupPath))).group.id);
    return shared.group;
  },
  returns: { field: "group", type: GroupRef },
});
