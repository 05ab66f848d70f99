// Argument helpers shared by the mutations: paths and global ids turned into the domain's refs;
// what does not name a visible record is the domain's 404 (GitLab's "resource not available").
import { notFound } from "../../errors.js";
import { findAwardableById, type Awardable } from "../../domain/award-emoji/awardables.js";
import { findNoteableById } from "../../domain/notes/by-id.js";
import type { Noteable } from "../../domain/notes/queries.js";
import type { Context } from "../../context.js";
import { VISIBILITIES } from "../../domain/shared/paths.js";
import { builder } from "./builder.js";
import { decodeGid, idOfGid } from "./ids.js";
import { iidOf } from "./issuables.js";
import type { PayloadInputFieldBuilder } from "./payload-mutation.js";

/** GitLab's VisibilityLevelsEnum (lower-case values, as GitLab's). */
export const VisibilityLevelsEnum = builder.enumType("VisibilityLevelsEnum", { values: VISIBILITIES });

export const AVATAR_DESCRIPTION =
  "An image of at most 200 KiB (GraphQL multipart request); null removes the avatar, as REST.";

/** A full path as given; a numeric id, which the domain would also take, names no `what`. */
function fullPathOf(path: string | number, what: string): string {
  if (/^\d+$/.test(String(path))) throw notFound(what);
  return String(path);
}

/** A project's full path (never a numeric id). */
export const projectPathOf = (path: string | number) => fullPathOf(path, "Project");

/** A group's full path (never a numeric id). */
export const groupPathOf = (path: string | number) => fullPathOf(path, "Group");

/** A group's or user's full path (never a numeric id). */
export const namespacePathOf = (path: string | number) => fullPathOf(path, "Namespace");

export function iidArg(iid: string): number {
  const value = iidOf(iid);
  if (value == null) throw notFound();
  return value;
}

/** The field a project's or group's write names it by, and that field's path check. */
export interface OwnerPathField {
  pathKey: "projectPath" | "groupPath";
  pathOf: (path: string | number) => string;
}

/** The path in an input's owner field (its name differs by owner, which widens Pothos' input type: read it back here). */
export const ownerPathIn = ({ pathKey, pathOf }: OwnerPathField, input: object) => pathOf((input as Record<string, string | number>)[pathKey]!);

/** The input fields naming an issue or merge request (projectPath + iid, as GitLab's issuable mutations). */
export const issuableInputFields = (t: PayloadInputFieldBuilder) => ({
  projectPath: t.id({ required: true }),
  iid: t.string({ required: true }),
});

/** The project path and iid an issuable input names. */
export function issuablePathOf(input: { projectPath: string | number; iid: string }): [string, number] {
  return [projectPathOf(input.projectPath), iidArg(input.iid)];
}

/** The database id a global id of `model` names; anything else is a missing record. */
export function recordIdOf(gid: string | number, model: string): number {
  const id = idOfGid(String(gid), model);
  if (id == null) throw notFound();
  return id;
}

/** The id a global id of `model` names; an id of another type or a malformed one is -1, matching nothing. */
export const matchingIdOf = (gid: string | number, model: string) => idOfGid(String(gid), model) ?? -1;

/** The id of a user given as a global id; an id of another type or a malformed one matches nobody. */
export const userIdOf = (id: string | number) => matchingIdOf(id, "User");

/** User ids given as global ids; an id of another type or a malformed one matches nobody. */
export const userIdsOf = (ids: readonly (string | number)[] | null | undefined) => ids?.map(userIdOf);

/** Group ids given as global ids; an id of another type or a malformed one matches no group. */
export const groupIdsOf = (ids: readonly (string | number)[] | null | undefined) => ids?.map((id) => matchingIdOf(id, "Group"));

/** The issue, merge request or project snippet a global id names, found by the domain (another type or a malformed id: 404). */
export function noteableOf(ctx: Context, gid: string | number): Promise<Noteable> {
  const { typename, id } = decodeGid(String(gid));
  return findNoteableById(ctx, typename, Number(id));
}

const DISCUSSION_GID = /^gid:\/\/forgeline\/Discussion\/([0-9a-f]{40})$/;

/** The 40-hex discussion id of a DiscussionID; a malformed one names no discussion. */
export function discussionIdOf(gid: string | number): string {
  const match = DISCUSSION_GID.exec(String(gid));
  if (!match) throw notFound("Discussion");
  return match[1]!;
}

/** The issue, merge request, project snippet or note a global id names, found by the domain (another type or a malformed id: 404). */
export function awardableOf(ctx: Context, gid: string | number): Promise<Awardable> {
  const { typename, id } = decodeGid(String(gid));
  return findAwardableById(ctx, typename, Number(id));
}
