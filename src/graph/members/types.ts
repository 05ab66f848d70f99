// Memberships (GitLab's ProjectMember and GroupMember): the user and their access level.
import type { Member } from "../../domain/members/queries.js";
import { ROLE_NAMES } from "../../domain/shared/access-levels.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { UserRef } from "../users/types.js";

export const AccessLevelRef = builder.objectRef<number>("AccessLevel");

builder.objectType(AccessLevelRef, {
  fields: (t) => ({
    integerValue: t.int({ resolve: (level) => level }),
    stringValue: t.string({ description: "GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER, ...", resolve: (level) => roleName(level).toUpperCase().replace(/ /g, "_") }),
    humanAccess: t.string({ resolve: (level) => roleName(level) }),
  }),
});

const roleName = (level: number) => ROLE_NAMES[level] ?? "No access";

function memberType(name: string) {
  const ref = builder.objectRef<Member>(name);
  builder.objectType(ref, {
    fields: (t) => ({
      user: t.field({ type: UserRef, resolve: (member) => member.user }),
      accessLevel: t.field({ type: AccessLevelRef, resolve: (member) => member.accessLevel }),
      createdAt: t.expose("createdAt", { type: "Time" }),
      expiresAt: t.expose("expiresAt", { type: "Time", nullable: true }),
    }),
  });
  return ref;
}

export const ProjectMemberRef = memberType("ProjectMember");
export const GroupMemberRef = memberType("GroupMember");
export const ProjectMemberConnection = countedConnection(ProjectMemberRef, "ProjectMember");
export const GroupMemberConnection = countedConnection(GroupMemberRef, "GroupMember");
