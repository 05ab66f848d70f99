// Issues: the Issue node (Awardable, Noteable) and Project.issues / Project.issue, read through
// the domain's issue list and lookup (confidential issues only for those who may read them).
import type { Issue } from "../../generated/prisma/client.js";
import { issuableFactsLoader, issuableKey } from "../../domain/shared/issuable-facts.js";
import { ISSUE_STATES, listProjectIssues, projectIssueFilters } from "../../domain/issues/lists.js";
import { issueReferences } from "../../domain/issues/presenter.js";
import { findIssue, findIssueById } from "../../domain/issues/queries.js";
import { shownProjectAccess } from "../../domain/shared/parents.js";
import { indexedSearchFilter } from "../../domain/search/text-index.js";
import { AwardableRef } from "../award-emoji/types.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { iidOf, issuableWebUrl, LabelConnection, LabelRef, labelsConnection, projectOfIssuable, SORTS } from "../shared/issuables.js";
import { registerNodeLoader } from "../shared/node.js";
import { NoteableRef } from "../notes/types.js";
import { ProjectRef } from "../projects/types.js";
import { userById, UserCoreConnection, usersConnection, UserRef } from "../users/types.js";

export const IssueRef = builder.objectRef<Issue>("Issue");

const ISSUE_SORTS = { ...SORTS, DUE_DATE_ASC: { order_by: "due_date", sort: "asc" }, DUE_DATE_DESC: { order_by: "due_date", sort: "desc" } } as const;
const IssueSortEnum = builder.enumType("IssueSort", { values: Object.keys(ISSUE_SORTS) as (keyof typeof ISSUE_SORTS)[] });
const IssuableStateEnum = builder.enumType("IssuableState", { values: ISSUE_STATES });

builder.node(IssueRef, {
  description: "An issue.",
  interfaces: [AwardableRef, NoteableRef],
  id: { resolve: (issue) => issue.id },
  fields: (t) => ({
    iid: t.string({ resolve: (issue) => String(issue.iid) }),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    state: t.exposeString("state"),
    confidential: t.exposeBoolean("confidential"),
    discussionLocked: t.boolean({ resolve: (issue) => issue.discussionLocked ?? false }),
    dueDate: t.string({ nullable: true, description: "YYYY-MM-DD", resolve: (issue) => issue.dueDate }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    updatedAt: t.expose("updatedAt", { type: "Time" }),
    closedAt: t.expose("closedAt", { type: "Time", nullable: true }),
    projectId: t.exposeInt("projectId"),
    webUrl: t.string({ resolve: (issue, _a, ctx) => issuableWebUrl(ctx, issue, "issues") }),
    reference: t.string({
      args: { full: t.arg.boolean({ defaultValue: false }) },
      resolve: async (issue, args, ctx) => (args.full ? issueReferences(await projectOfIssuable(ctx, issue), issue.iid).full : `#${issue.iid}`),
    }),
    author: t.field({ type: UserRef, resolve: (issue, _a, ctx) => userById(ctx, issue.authorId) }),
    assignees: t.connection(
      {
        type: UserRef,
        resolve: async (issue, args, ctx) => usersConnection(ctx, args, (await ctx.loaders.get(issuableFactsLoader).load(issuableKey("Issue", issue.id))).assigneeIds),
      },
      UserCoreConnection,
    ),
    labels: t.connection({ type: LabelRef, resolve: (issue, args, ctx) => labelsConnection(ctx, args, "Issue", issue) }, LabelConnection),
    upvotes: t.int({ resolve: async (issue, _a, ctx) => (await ctx.loaders.get(issuableFactsLoader).load(issuableKey("Issue", issue.id))).upvotes }),
    downvotes: t.int({ resolve: async (issue, _a, ctx) => (await ctx.loaders.get(issuableFactsLoader).load(issuableKey("Issue", issue.id))).downvotes }),
    userNotesCount: t.int({ resolve: async (issue, _a, ctx) => (await ctx.loaders.get(issuableFactsLoader).load(issuableKey("Issue", issue.id))).userNotesCount }),
  }),
});

export const IssueConnection = countedConnection(IssueRef, "Issue");

builder.objectFields(ProjectRef, (t) => ({
  issues: t.connection(
    {
      type: IssueRef,
      description: "Issues the caller may read, newest first unless sorted otherwise.",
      args: {
        state: t.arg({ type: IssuableStateEnum }),
        labelName: t.arg.stringList({ description: "Issues with every one of these labels." }),
        search: t.arg.string({ description: "Title or description contains this, as the Search API finds it (a term under 3 characters: the whole title or description)." }),
        sort: t.arg({ type: IssueSortEnum, defaultValue: "CREATED_DESC" }),
        authorUsername: t.arg.string(),
        assigneeUsernames: t.arg.stringList(),
        confidential: t.arg.boolean(),
      },
      resolve: async (project, args, ctx) => {
        const filters = projectIssueFilters({
          state: args.state ?? "all",
          labels: args.labelName,
          ...(await indexedSearchFilter(ctx, "issue", args.search)),
          author_username: args.authorUsername,
          assignee_username: args.assigneeUsernames,
          confidential: args.confidential,
          ...ISSUE_SORTS[args.sort as keyof typeof ISSUE_SORTS],
        });
        const access = await shownProjectAccess(ctx, project);
        return offsetConnection(args, (page) => listProjectIssues(ctx, access, filters, page));
      },
    },
    IssueConnection,
  ),
  issue: t.field({
    type: IssueRef,
    nullable: true,
    args: { iid: t.arg.string({ required: true }) },
    resolve: (project, args, ctx) => {
      const iid = iidOf(args.iid);
      return iid == null ? null : orNull(async () => (await findIssue(ctx, project.id, iid)).issue);
    },
  }),
}));

registerNodeLoader("Issue", IssueRef, async (ctx, id) => (await findIssueById(ctx, id)).issue);
