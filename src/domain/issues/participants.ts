// GET /projects/:id/issues/:issue_iid/participants: GitLab's Participable#participants(current_user)
// for an issue, as Issuable declares them (participant :author, :notes_with_associations,
// :assignees, plus the users Mentionable finds in the title, the description and the notes).
import type { User } from "../../generated/prisma/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import { projectMemberLevels } from "../shared/memberships.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { issueAssigneeIds, type IssueAccess } from "./queries.js";
import { mentionedUsernames } from "./references.js";

/**
 * The issue's participants in GitLab's order (its breadth-first walk over a stack): the assignees,
 * the authors of the notes (oldest first; internal notes too), the issue's author, then the
 * users mentioned. Users mentioned only in internal notes count when they may read those
 * (Reporter and above). Only users who may read the project are listed (filter_by_ability).
 */
export async function issueParticipants(ctx: DomainContext, { issue, access }: IssueAccess, page: PageArgs): Promise<Page<User>> {
  const notes = await ctx.db.note.findMany({
    where: { noteableType: "Issue", noteableId: issue.id },
    orderBy: { id: "asc" },
    select: { authorId: true, body: true, internal: true },
  });
  const assigneeIds = await issueAssigneeIds(ctx, issue);
  const direct = [...assigneeIds, ...notes.map((note) => note.authorId), issue.authorId];
  const mentioned = await usersNamed(ctx, [issue.title, issue.description, ...notes.filter((n) => !n.internal).map((n) => n.body)]);
  const mentionedInternally = await usersNamed(ctx, notes.filter((n) => n.internal).map((n) => n.body));
  const ids = [...new Set([...direct, ...mentioned, ...(await withLevel(ctx, access, mentionedInternally, AccessLevel.reporter))])];
  return paginateList(await readersOfProject(ctx, access, ids), page);
}

/** Ids of the users @mentioned in the texts, by ascending id. */
async function usersNamed(ctx: DomainContext, texts: (string | null)[]): Promise<number[]> {
  const names = [...new Set(texts.flatMap((text) => mentionedUsernames(text)))];
  if (!names.length) return [];
  const rows = await ctx.db.user.findMany({ where: { usernameLower: { in: names } }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((row) => row.id);
}

/** The users among `ids` with at least `level` in the project (administrators always). */
async function withLevel(ctx: DomainContext, access: ProjectAccess, ids: number[], level: number): Promise<number[]> {
  if (!ids.length) return [];
  const [levels, admins] = await Promise.all([
    projectMemberLevels(ctx, access.project, ids),
    ctx.db.user.findMany({ where: { id: { in: ids }, isAdmin: true }, select: { id: true } }),
  ]);
  const adminIds = new Set(admins.map((admin) => admin.id));
  return ids.filter((id) => adminIds.has(id) || (levels.get(id) ?? 0) >= level);
}

/**
 * Ability.users_that_can_read_project, in the order given: every user for a public or internal
 * project; members (Guest and above) and administrators for a private one.
 */
async function readersOfProject(ctx: DomainContext, access: ProjectAccess, ids: number[]): Promise<User[]> {
  const users = await ctx.db.user.findMany({ where: { id: { in: ids } } });
  const byId = new Map(users.map((user) => [user.id, user]));
  const readers = access.project.visibility === "private" ? new Set(await withLevel(ctx, access, ids, AccessLevel.guest)) : null;
  return ids.flatMap((id) => {
    const user = byId.get(id);
    return user && (!readers || readers.has(id)) ? [user] : [];
  });
}
