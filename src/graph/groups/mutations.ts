// groupCreate, groupUpdate, groupDelete and groupTransfer (groups.ts, deletions/groups.ts and
// groups/transfer.ts rules, as REST POST, PUT and DELETE /groups and POST /groups/:id/transfer): one
// `input`, a payload `{ group, errors }`. `avatar` is a multipart upload.
import { deleteGroup } from "../../domain/deletions/groups.js";
import { transferGroup } from "../../domain/groups/transfer.js";
import { createGroup, updateGroup } from "../../domain/groups/writes.js";
import { findGroup, findGroupToWrite } from "../../domain/shared/parents.js";
import { AVATAR_DESCRIPTION, groupPathOf, matchingIdOf, VisibilityLevelsEnum } from "../shared/mutation-inputs.js";
import { GroupRef } from "./types.js";
import { payloadMutation } from "../shared/payload-mutation.js";

const group = { field: "group", type: GroupRef };

payloadMutation("groupCreate", {
  inputFields: (t) => ({
    name: t.string({ required: true }),
    path: t.string({ required: true }),
    parentId: t.id({ description: "Global id of the parent group (Maintainers and above of it); a top-level group without one." }),
    description: t.string(),
    visibility: t.field({ type: VisibilityLevelsEnum, description: "private unless given." }),
    requestAccessEnabled: t.boolean(),
    avatar: t.field({ type: "Upload", description: AVATAR_DESCRIPTION }),
  }),
  write: (input, ctx) =>
    createGroup(ctx, {
      name: input.name,
      path: input.path,
      parent_id: input.parentId == null ? null : matchingIdOf(input.parentId, "Group"),
      description: input.description,
      visibility: input.visibility,
      request_access_enabled: input.requestAccessEnabled,
      avatar: input.avatar,
    }),
  returns: group,
});

payloadMutation("groupUpdate", {
  inputFields: (t) => ({
    fullPath: t.id({ required: true }),
    name: t.string(),
    path: t.string({ description: "A new path moves the group and everything below it." }),
    description: t.string(),
    visibility: t.field({ type: VisibilityLevelsEnum }),
    requestAccessEnabled: t.boolean(),
    avatar: t.field({ type: "Upload", description: AVATAR_DESCRIPTION }),
  }),
  write: async (input, ctx) => {
    const path = groupPathOf(input.fullPath);
    const changes = {
      name: input.name,
      path: input.path,
      description: input.description,
      visibility: input.visibility,
      request_access_enabled: input.requestAccessEnabled,
      avatar: input.avatar,
    };
    return updateGroup(ctx, await findGroupToWrite(ctx, path), changes);
  },
  returns: group,
});

payloadMutation("groupDelete", {
  inputFields: (t) => ({ fullPath: t.id({ required: true }) }),
  write: async (input, ctx) => deleteGroup(ctx, await findGroup(ctx, groupPathOf(input.fullPath))),
});

payloadMutation("groupTransfer", {
  description: "Moves a group, with its subgroups and projects, under another group (Maintainers and above of it) or to the top level.",
  inputFields: (t) => ({
    fullPath: t.id({ required: true, description: "The group to move (its Owners and administrators)." }),
    parentId: t.id({ description: "Global id of the new parent group; without one the group becomes top-level." }),
  }),
  write: async (input, ctx) => {
    const path = groupPathOf(input.fullPath);
    const parentId = input.parentId == null ? null : matchingIdOf(input.parentId, "Group");
    return transferGroup(ctx, await findGroup(ctx, path), parentId);
  },
  returns: { field: "group", type: GroupRef },
});
