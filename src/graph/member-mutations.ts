// Memberships, one member at a time (members.ts rules, as REST /groups/:id/members and
// /projects/:id/members): projectMemberAdd / Update / Remove and the group ones. GitLab's graph
// has the bulk forms (projectMemberBulkUpdate); these take one user each.
import { addMember, removeMember, updateMember, type MemberSource } from "../domain/members.js";
import { AccessLevel } from "../domain/access.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { GroupMemberRef, ProjectMemberRef } from "./members.js";
import { groupPathOf, projectPathOf, userIdOf } from "./mutation-inputs.js";

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

interface MemberSourceInfo {
  source: MemberSource;
  noun: "project" | "group";
  pathKey: "projectPath" | "groupPath";
  pathOf: (path: string | number) => string;
  ref: typeof ProjectMemberRef;
}

/** The input as declared below (its path field's name differs by source, which widens Pothos' type). */
interface MemberArgs {
  userId: string;
  accessLevel: number;
  expiresAt?: Date | null;
}

function memberMutations({ source, noun, pathKey, pathOf, ref }: MemberSourceInfo) {
  const sourceOf = (input: object) => pathOf((input as Record<string, string>)[pathKey]!);

  builder.relayMutationField(
    `${noun}MemberAdd`,
    {
      inputFields: (t) => ({
        [pathKey]: t.id({ required: true }),
        userId: t.id({ required: true, description: "Global id of the user." }),
        accessLevel: t.field({ type: MemberAccessLevelEnum, required: true }),
        expiresAt: t.field({ type: "Time" }),
      }),
    },
    {
      resolve: (_root, { input }, ctx) => {
        const args = input as unknown as MemberArgs;
        return payload(ctx, "member", () =>
          addMember(ctx, source, sourceOf(input), { user_id: userIdOf(args.userId), access_level: args.accessLevel, expires_at: args.expiresAt }));
      },
    },
    {
      outputFields: (t) => ({
        [`${noun}Member`]: t.field({ type: ref, nullable: true, resolve: (result) => result.member }),
        errors: t.stringList({ resolve: (result) => result.errors }),
      }),
    },
  );

  builder.relayMutationField(
    `${noun}MemberUpdate`,
    {
      inputFields: (t) => ({
        [pathKey]: t.id({ required: true }),
        userId: t.id({ required: true, description: "Global id of the member's user." }),
        accessLevel: t.field({ type: MemberAccessLevelEnum, required: true }),
        expiresAt: t.field({ type: "Time", description: "Null removes the expiry; absent keeps it." }),
      }),
    },
    {
      resolve: (_root, { input }, ctx) => {
        const args = input as unknown as MemberArgs;
        return payload(ctx, "member", () =>
          updateMember(ctx, source, sourceOf(input), userIdOf(args.userId), { access_level: args.accessLevel, expires_at: args.expiresAt }));
      },
    },
    {
      outputFields: (t) => ({
        [`${noun}Member`]: t.field({ type: ref, nullable: true, resolve: (result) => result.member }),
        errors: t.stringList({ resolve: (result) => result.errors }),
      }),
    },
  );

  builder.relayMutationField(
    `${noun}MemberRemove`,
    {
      inputFields: (t) => ({
        [pathKey]: t.id({ required: true }),
        userId: t.id({ required: true, description: "Global id of the member's user; members may remove themselves." }),
      }),
    },
    { resolve: (_root, { input }, ctx) => payload(ctx, "removed", () => removeMember(ctx, source, sourceOf(input), userIdOf(String(input.userId)))) },
    { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
  );
}

memberMutations({ source: "project", noun: "project", pathKey: "projectPath", pathOf: projectPathOf, ref: ProjectMemberRef });
memberMutations({ source: "group", noun: "group", pathKey: "groupPath", pathOf: groupPathOf, ref: GroupMemberRef });
