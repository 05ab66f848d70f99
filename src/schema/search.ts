// GitLab's Search API (lib/api/search.rb): GET /search, /groups/:id/search and /projects/:id/search.
// Each route's own root field checks `search` and `scope` (Grape's texts); each scope the level
// allows is a variant field of the route (route.variant: the adapter runs it for that `scope`),
// answering the entity GitLab presents for it, through one domain function per scope.
import type { Context } from "../context.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { milestoneEntity } from "../domain/milestones/presenter.js";
import { searchBlobs, searchCommits } from "../domain/repository/search.js";
import {
  searchIssues, searchMergeRequests, searchMilestones, searchNotes, searchProjects, searchSnippetTitles, searchUsers, type SearchParent,
} from "../domain/search/lists.js";
import { checkSearchRoute, GLOBAL_SCOPES, GROUP_SCOPES, PROJECT_SCOPES, SEARCH_STATES, type SearchParams } from "../domain/search/rules.js";
import { paginateList, type Page } from "../domain/shared/pagination.js";
import { builder } from "./builder.js";
import { IssueEntity } from "./issues.js";
import { MergeRequestEntity } from "./merge-requests.js";
import { MilestoneRestEntity } from "./milestones.js";
import { NoteEntity } from "./notes.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { ProjectEntity } from "./projects.js";
import { CommitDetailEntity } from "./repository.js";
import { SnippetEntity } from "./snippets.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

/** Entities::Blob as search presents a found blob. */
const SearchBlob = builder.objectRef<Awaited<ReturnType<typeof searchBlobs>>["rows"][number]>("SearchBlob").implement({
  fields: (t) => ({
    basename: t.exposeString("basename"),
    data: t.exposeString("data"),
    path: t.exposeString("path"),
    filename: t.exposeString("filename"),
    id: t.string({ nullable: true, resolve: () => null }),
    ref: t.exposeString("ref"),
    startline: t.exposeInt("startline"),
    project_id: t.exposeInt("project_id"),
  }),
});

const SearchState = builder.enumType("SearchState", { values: SEARCH_STATES });
const SearchOrderBy = builder.enumType("SearchOrderBy", { values: ["created_at"] as const });

const LEVELS = [
  { level: "global", field: "search", path: "/search", scopes: GLOBAL_SCOPES },
  { level: "group", field: "groupSearch", path: "/groups/:id/search", scopes: GROUP_SCOPES },
  { level: "project", field: "projectSearch", path: "/projects/:id/search", scopes: PROJECT_SCOPES },
] as const;

type Level = (typeof LEVELS)[number]["level"];

async function parentOf(ctx: Context, level: Level, id: string | number | null | undefined): Promise<SearchParent> {
  if (level === "group") return { level, access: await findGroup(ctx, String(id)) };
  if (level === "project") return { level, access: await findProject(ctx, String(id)) };
  return { level: "global" };
}

const projectAccessOf = (parent: SearchParent) => {
  if (parent.level !== "project") throw new Error("a project scope searched outside a project");
  return parent.access;
};

type Args = { id?: string | number | null; search: string; page?: number | null; per_page?: number | null } & Omit<SearchParams, "search">;

/** Each scope: its entity and how its rows are found. */
const SCOPES = {
  projects: { type: [ProjectEntity], find: (ctx: Context, p: SearchParent, a: Args) => searchProjects(ctx, p, a, a) },
  issues: { type: [IssueEntity], find: (ctx: Context, p: SearchParent, a: Args) => searchIssues(ctx, p, a, a) },
  merge_requests: { type: [MergeRequestEntity], find: (ctx: Context, p: SearchParent, a: Args) => searchMergeRequests(ctx, p, a, a) },
  milestones: {
    type: [MilestoneRestEntity],
    find: async (ctx: Context, p: SearchParent, a: Args) => {
      const page = await searchMilestones(ctx, p, a, a);
      return { ...page, rows: await Promise.all(page.rows.map((m) => milestoneEntity(ctx, m))) };
    },
  },
  snippet_titles: { type: [SnippetEntity], find: (ctx: Context, _p: SearchParent, a: Args) => searchSnippetTitles(ctx, a, a) },
  users: { type: [UserBasic], find: (ctx: Context, p: SearchParent, a: Args) => searchUsers(ctx, p, a, a) },
  notes: { type: [NoteEntity], find: (ctx: Context, p: SearchParent, a: Args) => searchNotes(ctx, projectAccessOf(p), a, a) },
  // GitLab answers an empty list for a project without a wiki (no wikis here)
  wiki_blobs: { type: [SearchBlob], find: (_ctx: Context, _p: SearchParent, a: Args) => paginateList([], a) },
  commits: {
    type: [CommitDetailEntity],
    find: async (ctx: Context, p: SearchParent, a: Args) => {
      const page = await searchCommits(ctx, projectAccessOf(p), a.search, a.ref, a);
      return { ...page, rows: page.rows.map((commit) => ({ ...commit, stats: null })) };
    },
  },
  blobs: { type: [SearchBlob], find: (ctx: Context, p: SearchParent, a: Args) => searchBlobs(ctx, projectAccessOf(p), a.search, a.ref, a) },
} as const;

for (const { level, field, path, scopes } of LEVELS) {
  const common = builder.args((t) => ({
    state: t.field({ type: SearchState, required: false }),
    confidential: t.boolean({ required: false }),
    order_by: t.field({ type: SearchOrderBy, required: false }),
    sort: t.field({ type: SortDirectionEnum, required: false }),
    ...(level === "project" ? { ref: t.string({ required: false }) } : {}),
    ...pageArgs,
  }));
  builder.queryFields((t) => ({
    // the route: reached only when `scope` names none of the level's scopes, which it refuses
    [field]: t.field({
      type: ["JSON"],
      description: `Search (scope: ${scopes.join(", ")}); the answer is the scope's entities.`,
      extensions: { rest: route.get(path), access: "authenticated" },
      args: {
        ...(level === "global" ? {} : { id: t.arg.id({ required: true }) }),
        search: t.arg.string({ required: false }),
        scope: t.arg({ type: builder.enumType(`${capitalized(level)}SearchScope`, { values: scopes }), required: false }),
        ...common,
      },
      resolve: async (_r, args, ctx) => {
        checkSearchRoute(args.search, args.scope ?? null, scopes);
        if (level !== "global") await parentOf(ctx, level, (args as { id?: string }).id);
        return [];
      },
    }),
    ...Object.fromEntries(
      scopes.map((scope) => {
        const spec = SCOPES[scope];
        return [
          `${field}${pascal(scope)}`,
          t.field({
            type: spec.type as never,
            extensions: { restVariant: route.variant(field, "scope", scope), access: "authenticated" },
            args: {
              ...(level === "global" ? {} : { id: t.arg.id({ required: true }) }),
              search: t.arg.string({ required: true }),
              scope: t.arg.string({ required: true }),
              ...common,
            },
            resolve: async (_r: unknown, args: Args, ctx: Context) => {
              const parent = await parentOf(ctx, level, args.id);
              return rowsOf(ctx, (await spec.find(ctx, parent, args)) as Page<unknown>);
            },
          } as never),
        ];
      }),
    ),
  }));
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const pascal = (scope: string) => scope.split("_").map(capitalized).join("");
