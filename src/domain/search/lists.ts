// GitLab's basic search (SearchService with Search::GlobalService, GroupService and ProjectService,
// Gitlab::SearchResults and Gitlab::ProjectSearchResults): one function per level and scope, each
// a page of the records the lists of that resource show, narrowed to the caller's reading rights
// by the same rules as those lists (the lists themselves, given an index-backed text match).
import type { Prisma, User } from "../../generated/prisma/client.js";
import { listGroupIssues, listIssues, listProjectIssues, projectIssueFilters } from "../issues/lists.js";
import { listAllMergeRequests, listGroupMergeRequests, listProjectMergeRequests } from "../merge-requests/lists.js";
import type { MergeRequestRow } from "../merge-requests/queries.js";
import { canReadMergeRequests } from "../merge-requests/queries.js";
import { canReadMilestones } from "../milestones/rules.js";
import { listGroupProjects, listProjects, type ProjectWithNamespace } from "../projects/lists.js";
import { listUsers } from "../users/lists.js";
import { allMembers, targetOf } from "../members/queries.js";
import { canReadAllConfidential } from "../issues/queries.js";
import { readablePersonalSnippetsWhere } from "../snippets/personal.js";
import { snippetFilesInclude, type SnippetView } from "../snippets/queries.js";
import type { NoteView } from "../notes/queries.js";
import { AccessLevel, canReadInternalNotes, openVisibilities } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { GroupAccess, ProjectAccess } from "../shared/parents.js";
import { paginate, paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { fuzzySearch } from "../shared/paths.js";
import { featureAvailable } from "../shared/project-features.js";
import { authorizedProjectsWhere } from "../shared/visibility-filters.js";
import { isAbusiveSearch, type SearchParams } from "./rules.js";
import { literalContains, textMatchWhere } from "./text-index.js";
import type { Issue, Milestone } from "../../generated/prisma/client.js";

export type SearchParent = { level: "global" } | { level: "group"; access: GroupAccess } | { level: "project"; access: ProjectAccess };

const emptyPage = <T>(page: PageArgs): Promise<Page<T>> => paginateList<T>([], page);

/** Search's state param for issues: merged means nothing there (IssuableFinder ignores unknown states). */
const issueState = (state: SearchParams["state"]) => (state === "opened" || state === "closed" ? state : "all");

export async function searchProjects(ctx: DomainContext, parent: SearchParent, params: SearchParams, page: PageArgs): Promise<Page<ProjectWithNamespace>> {
  if (isAbusiveSearch(params.search) || parent.level === "project") return emptyPage(page);
  // newest first, as the project lists order by default
  const filters = { search: params.search, archived: false };
  return parent.level === "group"
    ? listGroupProjects(ctx, parent.access, { ...filters, include_subgroups: true }, page)
    : listProjects(ctx, filters, page);
}

export async function searchIssues(ctx: DomainContext, parent: SearchParent, params: SearchParams, page: PageArgs): Promise<Page<Issue>> {
  if (isAbusiveSearch(params.search)) return emptyPage(page);
  const filters = projectIssueFilters({
    state: issueState(params.state),
    confidential: params.confidential ?? null,
    order_by: "created_at",
    sort: params.sort ?? "desc",
    matching: await textMatchWhere(ctx, "issue", params.search, ["title", "description"]),
  });
  if (parent.level === "project") return listProjectIssues(ctx, parent.access, filters, page);
  if (parent.level === "group") return listGroupIssues(ctx, parent.access, filters, page, true);
  return listIssues(ctx, { ...filters, scope: "all" }, page);
}

export async function searchMergeRequests(ctx: DomainContext, parent: SearchParent, params: SearchParams, page: PageArgs): Promise<Page<MergeRequestRow>> {
  if (isAbusiveSearch(params.search)) return emptyPage(page);
  const filters = {
    state: params.state ?? "all",
    order_by: "created_at" as const,
    sort: params.sort ?? "desc",
    scope: "all",
    matching: await textMatchWhere(ctx, "mergeRequest", params.search, ["title", "description"]),
  };
  if (parent.level === "project") {
    return canReadMergeRequests(ctx, parent.access) ? listProjectMergeRequests(ctx, parent.access, filters, page) : emptyPage(page);
  }
  if (parent.level === "group") return listGroupMergeRequests(ctx, parent.access, filters, page);
  return listAllMergeRequests(ctx, filters, page);
}

/** Milestones (Milestone.search over title and description), most recently updated first. */
export async function searchMilestones(ctx: DomainContext, parent: SearchParent, params: SearchParams, page: PageArgs): Promise<Page<Milestone>> {
  if (isAbusiveSearch(params.search)) return emptyPage(page);
  let owners: Prisma.MilestoneWhereInput;
  if (parent.level === "project") {
    if (!canReadMilestones(ctx, parent.access)) return emptyPage(page);
    owners = { projectId: parent.access.project.id };
  } else {
    const below = parent.level === "group" ? [{ namespace: { traversalIds: { startsWith: parent.access.group.traversalIds } } }] : [];
    owners = { project: { AND: [await milestoneProjectsWhere(ctx), ...below, { archived: false }] } };
  }
  const match = { OR: [{ title: literalContains(ctx, params.search) }, { description: literalContains(ctx, params.search) }] };
  const where: Prisma.MilestoneWhereInput = { AND: [owners, match] };
  const orderBy: Prisma.MilestoneOrderByWithRelationInput[] = [{ updatedAt: "desc" }, { id: "desc" }];
  return paginate(
    page,
    (cap) => ctx.db.milestone.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.milestone.findMany({ where, orderBy, skip, take }),
  );
}

/** Projects whose milestones the caller may read: visible, with issues or merge requests open to them. */
async function milestoneProjectsWhere(ctx: DomainContext): Promise<Prisma.ProjectWhereInput> {
  const someFeature = { OR: [{ issuesAccessLevel: { not: "disabled" } }, { mergeRequestsAccessLevel: { not: "disabled" } }] };
  if (isAdmin(ctx.actor)) return someFeature;
  const open = { visibility: { in: openVisibilities(ctx.actor) }, OR: [{ issuesAccessLevel: "enabled" }, { mergeRequestsAccessLevel: "enabled" }] };
  if (!ctx.actor) return open;
  return { OR: [open, { AND: [someFeature, await authorizedProjectsWhere(ctx, AccessLevel.guest)] }] };
}

/**
 * Users: everyone matching by name or username (global, UsersFinder), or the matching members
 * of the group or project, inherited ones included.
 */
export async function searchUsers(ctx: DomainContext, parent: SearchParent, params: SearchParams, page: PageArgs): Promise<Page<User>> {
  if (isAbusiveSearch(params.search)) return emptyPage(page);
  if (parent.level === "global") return listUsers(ctx, { search: params.search, active: true }, page);
  const match = literalContains(ctx, params.search);
  const members = await allMembers(ctx, targetOf(parent.access), { OR: [{ name: match }, { username: match }], state: "active" });
  const users = [...new Map(members.map((m) => [m.user.id, m.user])).values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  return paginateList(users, page);
}

/** snippet_titles: the personal snippets the caller may read, and the project snippets of projects they may read snippets of. */
export async function searchSnippetTitles(ctx: DomainContext, params: SearchParams, page: PageArgs): Promise<Page<SnippetView>> {
  if (isAbusiveSearch(params.search)) return emptyPage(page);
  const match = fuzzySearch<Prisma.SnippetWhereInput>(ctx.dialect, ["title", "description"], params.search);
  const where: Prisma.SnippetWhereInput = { AND: [{ OR: [readablePersonalSnippetsWhere(ctx), await projectSnippetsWhere(ctx)] }, match] };
  const orderBy: Prisma.SnippetOrderByWithRelationInput[] = [{ updatedAt: "desc" }, { id: "desc" }];
  const found = await paginate(
    page,
    (cap) => ctx.db.snippet.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.snippet.findMany({ where, include: { ...snippetFilesInclude, project: { include: { namespace: true } } }, orderBy, skip, take }),
  );
  return found as Page<SnippetView>;
}

async function projectSnippetsWhere(ctx: DomainContext): Promise<Prisma.SnippetWhereInput> {
  if (isAdmin(ctx.actor)) return { projectId: { not: null }, project: { snippetsAccessLevel: { not: "disabled" } } };
  const open = openVisibilities(ctx.actor);
  const openProjects = { visibility: { in: open }, snippetsAccessLevel: "enabled" };
  const asMember = ctx.actor ? [{ AND: [await authorizedProjectsWhere(ctx, AccessLevel.guest), { snippetsAccessLevel: { not: "disabled" } }] }] : [];
  return {
    projectId: { not: null },
    OR: [
      { visibility: { in: open }, project: openProjects },
      ...(asMember.length ? [{ project: asMember[0]! }] : []),
    ],
  };
}

/**
 * notes (project only): the user notes (not system notes) whose body holds the term, on issues,
 * merge requests and snippets the caller may read; internal notes for Reporters and above.
 */
export async function searchNotes(ctx: DomainContext, access: ProjectAccess, params: SearchParams, page: PageArgs): Promise<Page<NoteView>> {
  if (isAbusiveSearch(params.search)) return emptyPage(page);
  const userId = ctx.actor?.user.id ?? -1;
  const readable: Prisma.NoteWhereInput[] = [];
  if (featureAvailable(ctx, access, "issues")) {
    const confidential = canReadAllConfidential(ctx, access)
      ? {}
      : { OR: [{ confidential: false }, { authorId: userId }, { assignees: { some: { userId } } }] };
    const issueIds = await ctx.db.issue.findMany({ where: { AND: [{ projectId: access.project.id }, confidential] }, select: { id: true, iid: true } });
    readable.push({ noteableType: "Issue", noteableId: { in: issueIds.map((i) => i.id) } });
  }
  if (canReadMergeRequests(ctx, access)) readable.push({ noteableType: "MergeRequest" });
  if (featureAvailable(ctx, access, "snippets")) readable.push({ noteableType: "Snippet" });
  if (!readable.length) return emptyPage(page);
  const where: Prisma.NoteWhereInput = {
    AND: [
      { projectId: access.project.id, system: false },
      canReadInternalNotes(ctx, access) ? {} : { internal: false },
      { OR: readable },
      { body: literalContains(ctx, params.search) },
    ],
  };
  const orderBy: Prisma.NoteOrderByWithRelationInput[] = [{ updatedAt: "desc" }, { id: "desc" }];
  const notes = await paginate(
    page,
    (cap) => ctx.db.note.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.note.findMany({ where, orderBy, skip, take }),
  );
  return { ...notes, rows: await withNoteableIids(ctx, notes.rows) };
}

/** The noteable_iid of each note (issues and merge requests have one, snippets none). */
async function withNoteableIids(ctx: DomainContext, notes: Prisma.NoteGetPayload<object>[]): Promise<NoteView[]> {
  const ids = (type: string) => [...new Set(notes.filter((n) => n.noteableType === type).map((n) => n.noteableId))];
  const [issues, mergeRequests] = await Promise.all([
    ids("Issue").length ? ctx.db.issue.findMany({ where: { id: { in: ids("Issue") } }, select: { id: true, iid: true } }) : [],
    ids("MergeRequest").length ? ctx.db.mergeRequest.findMany({ where: { id: { in: ids("MergeRequest") } }, select: { id: true, iid: true } }) : [],
  ]);
  const iids = new Map<string, number>([...issues.map((i) => [`Issue ${i.id}`, i.iid] as const), ...mergeRequests.map((m) => [`MergeRequest ${m.id}`, m.iid] as const)]);
  return notes.map((note) => ({ ...note, noteableIid: iids.get(`${note.noteableType} ${note.noteableId}`) ?? null }));
}
