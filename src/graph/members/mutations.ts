// Memberships, one member at a time (members.ts rules, as REST /groups/:id/members and
// /projects/:id/members): projectMemberAdd / Update / Remove and the group ones. GitLab's graph
// has the bulk forms (projectMemberBulkUpdate); these take one user each.
import { addMember, checkMemberInput, checkMemberUpdate, findDirectMember, removeMember, updateMember } from "../../domain/members/writes.js";
import { findMemberParent, type MemberSource } from "../../domain/members/queries.js";
import { AccessLevel } from "../../domain/shared/access-levels.js";
import { builder } from "../shared/builder.js";
import { GroupMemberRef, ProjectMemberRef } from "./types.js";
import { groupPathOf, ownerPathIn, projectPathOf, userIdOf, type OwnerPathField } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";

export const MemberAccessLevelEnum = builder.enumType("MemberAccessLevel", {
  values: {
    MINIMAL_ACCESS: { value: AccessLevel.minimal },
    GUEST: { value: AccessLevel.guest },
    PLANNER: { value: AccessLevel.planner },
    REPORTER: { value: AccessLevel.reporter },
    DEVELOPER: { value: AccessLevel.developer },
    MAINTAINER: { value: AccessLevel.maintainer },
    OWNER: { value: AccessLevel.owner },
  } as const,
});

interface MemberSourceInfo extends OwnerPathField {
  source: MemberSource;
  noun: "project" | "group";
  ref: typeof ProjectMemberRef;
}

/** The input as declared below (its path field's name differs by source, which widens Pothos' type). */
interface MemberArgs {
  userId: string;
  accessLevel: number;
  expiresAt?: Date | null;
}

function memberMutations(info: MemberSourceInfo) {
  const { source, noun, pathKey, ref } = info;
  const member = { field: `${noun}Member`, type: ref };

  payloadMutation(`${noun}MemberAdd`, {
    inputFields: (t) => ({
      [pathKey]: t.id({ required: true }),
      userId: t.id({ required: true, description: "Global id of the user." }),
      accessLevel: t.field({ type: MemberAccessLevelEnum, required: true }),
      expiresAt: t.field({ type: "Time" }),
    }),
    write: async (input, ctx) => {
      const args = input as unknown as MemberArgs;
      const path = ownerPathIn(info, input);
      const member = { user_id: userIdOf(args.userId), access_level: args.accessLevel, expires_at: args.expiresAt };
      checkMemberInput(ctx, member);
      return addMember(ctx, await findMemberParent(ctx, source, path), member);
    },
    returns: member,
  });

  payloadMutation(`${noun}MemberUpdate`, {
    inputFields: (t) => ({
      [pathKey]: t.id({ required: true }),
      userId: t.id({ required: true, description: "Global id of the member's user." }),
      accessLevel: t.field({ type: MemberAccessLevelEnum, required: true }),
      expiresAt: t.field({ type: "Time", description: "Null removes the expiry; absent keeps it." }),
    }),
    write: async (input, ctx) => {
      const args = input as unknown as MemberArgs;
      const path = ownerPathIn(info, input);
      const userId = userIdOf(args.userId);
      const change = { access_level: args.accessLevel, expires_at: args.expiresAt };
      checkMemberUpdate(ctx, change);
      return updateMember(ctx, await findDirectMember(ctx, await findMemberParent(ctx, source, path), userId), change);
    },
    returns: member,
  });

  payloadMutation(`${noun}MemberRemove`, {
    inputFields: (t) => ({
      [pathKey]: t.id({ required: true }),
      userId: t.id({ required: true, description: "Global id of the member's user; members may remove themselves." }),
    }),
    write: async (input, ctx) => {
      const path = ownerPathIn(info, input);
      const userId = userIdOf(String(input.userId));
      return removeMember(ctx, await findDirectMember(ctx, await findMemberParent(ctx, source, path), userId));
    },
  });
}

memberMutations({ source: "project", noun: "project", pathKey: "projectPath", pathOf: projectPathOf, ref: ProjectMemberRef });
memberMutations({ source: "group", noun: "group", pathKey: "groupPath", pathOf: groupPathOf, ref: GroupMemberRef });
