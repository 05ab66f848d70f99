// The merge requests around an issue: GET .../issues/:issue_iid/closed_by (those that close it when
// merged) and .../related_merge_requests (those that mention it or that it mentions); and the other
// way, GET .../merge_requests/:merge_request_iid/closes_issues. GitLab keeps
// both in tables it fills as text is saved (merge_requests_closing_issues, and cross-reference
// system notes on the issue); Forgeline reads the same facts from the text itself when asked.
import type { Issue, IssueAssignee, Prisma } from "../../generated/prisma/client.js";
import { AppError } from "../../errors.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { canReadMergeRequests, ROW_INCLUDE, type MergeRequestRow, type MergeRequestAccess } from "./queries.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { projectFullPath } from "../shared/web-urls.js";
import { canReadIssue, type IssueAccess } from "../issues/queries.js";
import { closingReferencesIn, referencedFullPath, referencesIn, type TextReference } from "../issues/references.js";

type ProjectPaths = ProjectAccess["project"];

/**
 * closed_by: merge requests of the issue's project that the caller may read (MergeRequestsFinder,
 * newest first) and that close the issue. GitLab records an MR as closing an issue when it targets
 * the default branch and a closing statement ("Closes #1") in its title or description names the
 * issue (MergeRequest#closes_issues); the record outlives the merge, so merged and closed MRs stay
 * listed. Commit messages, which GitLab also reads, are not used here.
 */
export async function closingMergeRequests(ctx: DomainContext, { issue, access }: IssueAccess, page: PageArgs): Promise<Page<MergeRequestRow>> {
  const { project } = access;
  if (!canReadMergeRequests(ctx, access) || !project.defaultBranch) return paginateList([], page);
  const candidates = await ctx.db.mergeRequest.findMany({
    where: { projectId: project.id, targetBranch: project.defaultBranch, OR: mentioning(["title", "description"], issue.iid) },
    include: ROW_INCLUDE,
    orderBy: { id: "desc" },
  });
  const closing = candidates.filter((mr) =>
    closingReferencesIn(`${mr.title}\n${mr.description ?? ""}`, ctx.config.publicUrl).some((ref) => namesIssue(ref, project, project, issue.iid)));
  return paginateList(closing as MergeRequestRow[], page);
}

/**
 * closes_issues (MergeRequest#visible_closing_issues_for): on a merge request into its project's
 * default branch, the issues its title and description close ("Closes #1", "Fixes
 * group/other#2"), in its project or another, that the caller may read, in the order they are
 * written. Commit messages, which GitLab also reads, are not used here (as for closed_by).
 */
export async function closingIssues(ctx: DomainContext, { mergeRequest, access }: MergeRequestAccess, page: PageArgs): Promise<Page<Issue & { assignees: IssueAssignee[] }>> {
  const { project } = access;
  if (mergeRequest.targetBranch !== project.defaultBranch) return paginateList([], page);
  const from = { namespacePath: project.namespace.fullPath, fullPath: projectFullPath(project) };
  const accessByPath = new Map<string, ProjectAccess | null>([[from.fullPath.toLowerCase(), access]]);
  const found = new Map<number, Issue & { assignees: IssueAssignee[] }>();
  for (const ref of closingReferencesIn(`${mergeRequest.title}\n${mergeRequest.description ?? ""}`, ctx.config.publicUrl)) {
    const path = referencedFullPath(ref, from).toLowerCase();
    if (!accessByPath.has(path)) accessByPath.set(path, await findProject(ctx, path).catch(unreachable));
    const target = accessByPath.get(path);
    if (!target) continue;
    const issue = await ctx.db.issue.findUnique({ where: { projectId_iid: { projectId: target.project.id, iid: ref.iid } }, include: { assignees: true } });
    if (issue && !found.has(issue.id) && canReadIssue(ctx, target, issue)) found.set(issue.id, issue);
  }
  return paginateList([...found.values()], page);
}

/** A referenced project the caller cannot see, or that does not exist, closes nothing. */
function unreachable(error: unknown): null {
  if (error instanceof AppError) return null;
  throw error;
}

/**
 * related_merge_requests (Issues::ReferencedMergeRequestsService#referenced_merge_requests): the
 * merge requests the issue's title, description and notes reference (`!1`, `group/project!1`,
 * URLs), and those whose title, description or comments mention the issue (GitLab's
 * cross-reference notes "mentioned in merge request !1" on the issue), from any project whose
 * merge requests the caller may read; ordered as Gitlab::IssuableSorter orders them.
 */
export async function relatedMergeRequests(ctx: DomainContext, { issue, access }: IssueAccess, page: PageArgs): Promise<Page<MergeRequestRow>> {
  const notes = await ctx.db.note.findMany({ where: { noteableType: "Issue", noteableId: issue.id }, select: { body: true } });
  const texts = [issue.title, issue.description, ...notes.map((note) => note.body)];
  const referenced = await referencedFromIssue(ctx, access.project, texts);
  const mentioning = await mentioningIssue(ctx, access.project, issue.iid);
  const unique = new Map([...referenced, ...mentioning].map((mr) => [mr.id, mr]));
  const readable = await readableByCaller(ctx, [...unique.values()]);
  return paginateList(sortedFrom(access.project, readable), page);
}

/** Text conditions that every mention of issue `iid` satisfies (the exact check runs on the rows). */
function mentioning(columns: ("title" | "description" | "body")[], iid: number) {
  return columns.flatMap((column) => [`#${iid}`, `/issues/${iid}`].map((text) => ({ [column]: { contains: text } })));
}

/** Whether a reference written in `from`'s text names issue `iid` of `issueProject`. */
function namesIssue(ref: TextReference, from: ProjectPaths, issueProject: ProjectPaths, iid: number): boolean {
  if (ref.iid !== iid) return false;
  const path = referencedFullPath(ref, { namespacePath: from.namespace.fullPath, fullPath: projectFullPath(from) });
  return path.toLowerCase() === projectFullPath(issueProject).toLowerCase();
}

/** The merge requests the texts reference, seen from the issue's project. */
async function referencedFromIssue(ctx: DomainContext, project: ProjectPaths, texts: (string | null)[]): Promise<MergeRequestRow[]> {
  const from = { namespacePath: project.namespace.fullPath, fullPath: projectFullPath(project) };
  const refs = texts.flatMap((text) => referencesIn(text, "merge_requests", ctx.config.publicUrl));
  const iidsByPath = new Map<string, number[]>();
  for (const ref of refs) {
    const path = referencedFullPath(ref, from).toLowerCase();
    iidsByPath.set(path, [...(iidsByPath.get(path) ?? []), ref.iid]);
  }
  const conditions: Prisma.MergeRequestWhereInput[] = [];
  for (const [path, iids] of iidsByPath) {
    const target = await visibleProject(ctx, path);
    if (target) conditions.push({ projectId: target.project.id, iid: { in: iids } });
  }
  if (!conditions.length) return [];
  return ctx.db.mergeRequest.findMany({ where: { OR: conditions }, include: ROW_INCLUDE }) as Promise<MergeRequestRow[]>;
}

/** Merge requests whose title, description or comments (not internal, not system notes) mention the issue. */
async function mentioningIssue(ctx: DomainContext, project: ProjectPaths, iid: number): Promise<MergeRequestRow[]> {
  const [byText, notes] = await Promise.all([
    ctx.db.mergeRequest.findMany({ where: { OR: mentioning(["title", "description"], iid) }, include: ROW_INCLUDE }),
    ctx.db.note.findMany({
      where: { noteableType: "MergeRequest", system: false, internal: false, OR: mentioning(["body"], iid) },
      select: { noteableId: true, body: true },
    }),
  ]);
  const byNotes = notes.length
    ? await ctx.db.mergeRequest.findMany({ where: { id: { in: [...new Set(notes.map((n) => n.noteableId))] } }, include: ROW_INCLUDE })
    : [];
  const bodies = new Map<number, string[]>();
  for (const note of notes) bodies.set(note.noteableId, [...(bodies.get(note.noteableId) ?? []), note.body]);
  const mentions = (mr: MergeRequestRow, texts: (string | null)[]) =>
    texts.some((text) => referencesIn(text, "issues", ctx.config.publicUrl).some((ref) => namesIssue(ref, mr.project, project, iid)));
  return [
    ...(byText as MergeRequestRow[]).filter((mr) => mentions(mr, [mr.title, mr.description])),
    ...(byNotes as MergeRequestRow[]).filter((mr) => mentions(mr, bodies.get(mr.id) ?? [])),
  ];
}

/** A project by full path that the caller can see, or null. */
async function visibleProject(ctx: DomainContext, fullPath: string): Promise<ProjectAccess | null> {
  try {
    return await findProject(ctx, fullPath);
  } catch {
    return null;
  }
}

/** Ability.merge_requests_readable_by_user: the project is visible and its merge requests readable. */
async function readableByCaller(ctx: DomainContext, mergeRequests: MergeRequestRow[]): Promise<MergeRequestRow[]> {
  const readable = new Map<number, boolean>();
  for (const projectId of new Set(mergeRequests.map((mr) => mr.projectId))) {
    const access = await visibleProject(ctx, String(projectId));
    readable.set(projectId, !!access && canReadMergeRequests(ctx, access));
  }
  return mergeRequests.filter((mr) => readable.get(mr.projectId));
}

/**
 * Gitlab::IssuableSorter: the issue's own project first, then projects of its namespace, then the
 * others, each group in natural order of the reference as written from the issue's project
 * (`!2` < `!10`). The rows carry that relative reference (listedInGroupId: the namespace).
 */
function sortedFrom(project: ProjectPaths, mergeRequests: MergeRequestRow[]): MergeRequestRow[] {
  const group = (mr: MergeRequestRow) => (mr.projectId === project.id ? 0 : mr.project.namespaceId === project.namespaceId ? 1 : 2);
  const reference = (mr: MergeRequestRow) => [`!${mr.iid}`, `${mr.project.path}!${mr.iid}`, `${projectFullPath(mr.project)}!${mr.iid}`][group(mr)]!;
  const natural = new Intl.Collator("en", { numeric: true });
  return mergeRequests
    .map((mr) => (mr.projectId === project.id ? mr : { ...mr, listedInGroupId: project.namespaceId }))
    .sort((a, b) => group(a) - group(b) || natural.compare(reference(a), reference(b)));
}
