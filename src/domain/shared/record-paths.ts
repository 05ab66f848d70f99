// Records by database id (GraphQL global ids) turned into the project/iid paths the domain's
// lookups take, so that those lookups apply their permission rules; null when there is no record.
import type { DomainContext } from "./context.js";
import type { NoteableType } from "../notes/queries.js";
import type { RuleKind } from "../merge-requests/approvals/rules.js";
import type { HookOwnerRef } from "../web-hooks/owners.js";
import { fitsIdColumn } from "./record-ids.js";

export interface IssuablePath {
  projectId: number;
  iid: number;
}

// H2 replaces this: the paths of a note's issue or merge request (and of an approval rule's merge
// request), until those lookups take records (issues and merge requests: findIssueById, findMergeRequestById).
async function issuePathById(ctx: DomainContext, id: number): Promise<IssuablePath | null> {
  if (!fitsIdColumn(id)) return null;
  return ctx.db.issue.findUnique({ where: { id }, select: { projectId: true, iid: true } });
}

// H2 replaces this (see issuePathById)
async function mergeRequestPathById(ctx: DomainContext, id: number): Promise<IssuablePath | null> {
  if (!fitsIdColumn(id)) return null;
  return ctx.db.mergeRequest.findUnique({ where: { id }, select: { projectId: true, iid: true } });
}

export interface NotePath {
  noteableType: NoteableType;
  projectId: number;
  /** iid of an issue or merge request, id of a snippet */
  ref: number;
  noteId: number;
}

export async function notePathById(ctx: DomainContext, id: number): Promise<NotePath | null> {
  if (!fitsIdColumn(id)) return null;
  const note = await ctx.db.note.findUnique({ where: { id }, select: { noteableType: true, noteableId: true, projectId: true } });
  if (!note) return null;
  const noteableType = note.noteableType as NoteableType;
  const lookUp = noteableType === "Issue" ? issuePathById : noteableType === "MergeRequest" ? mergeRequestPathById : null;
  const ref = lookUp ? (await lookUp(ctx, note.noteableId))?.iid : note.noteableId;
  return ref == null ? null : { noteableType, projectId: note.projectId, ref, noteId: id };
}

/** The project of a project snippet (null for a missing or personal snippet). */
export async function snippetProjectById(ctx: DomainContext, id: number): Promise<number | null> {
  if (!fitsIdColumn(id)) return null;
  return (await ctx.db.snippet.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
}

/** The owner of a group or project hook, as the hook routes name it (null for a missing hook or another owner kind). */
export async function hookOwnerById(ctx: DomainContext, kind: "group" | "project", id: number): Promise<HookOwnerRef | null> {
  if (!fitsIdColumn(id)) return null;
  const row = await ctx.db.webHook.findUnique({ where: { id }, select: { groupId: true, projectId: true } });
  if (kind === "group") return row?.groupId == null ? null : { group: String(row.groupId) };
  return row?.projectId == null ? null : { project: String(row.projectId) };
}

export interface DiscussionPath {
  noteableType: NoteableType;
  projectId: number;
  /** iid of an issue or merge request, id of a snippet */
  ref: number;
}

/** The noteable of a discussion (GitLab's 40-hex discussion id), from the thread's first note. */
export async function discussionPathById(ctx: DomainContext, discussionId: string): Promise<DiscussionPath | null> {
  const note = await ctx.db.note.findFirst({ where: { discussionId }, orderBy: { id: "asc" }, select: { id: true } });
  const path = note && (await notePathById(ctx, note.id));
  return path && { noteableType: path.noteableType, projectId: path.projectId, ref: path.ref };
}

/** The container (project, group or merge request) of an approval rule of `kind` (null for a missing rule or one of another kind). */
async function ruleContainerById(ctx: DomainContext, id: number, kind: RuleKind): Promise<number | null> {
  if (!fitsIdColumn(id)) return null;
  const rule = await ctx.db.approvalRule.findUnique({ where: { id }, select: { kind: true, containerId: true } });
  return rule?.kind === kind ? rule.containerId : null;
}

/** The project of a project-level approval rule (null for a missing rule or one of another kind). */
export const projectRuleProjectById = (ctx: DomainContext, id: number) => ruleContainerById(ctx, id, "project");

/** The group of a group-level approval rule (null for a missing rule or one of another kind). */
export const groupRuleGroupById = (ctx: DomainContext, id: number) => ruleContainerById(ctx, id, "group");

/** The merge request of a merge-request-level approval rule (null for a missing rule or one of another kind). */
export async function mergeRequestRulePathById(ctx: DomainContext, id: number): Promise<IssuablePath | null> {
  const mergeRequestId = await ruleContainerById(ctx, id, "merge_request");
  return mergeRequestId == null ? null : mergeRequestPathById(ctx, mergeRequestId);
}
