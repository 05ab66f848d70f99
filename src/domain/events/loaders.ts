// What a page of events shows of its targets and needs for their read rules, in two statements
// whatever the page holds: the notes it names (whole rows: the entity shows them), and one UNION
// of the issues, merge requests and snippets it names directly or through those notes, with the
// assignees of the issues (confidential issues show to them).
import { Prisma, type Event, type Note } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { isNoteTarget } from "./rules.js";

export interface TargetFacts {
  kind: "Issue" | "MergeRequest" | "Snippet";
  id: number;
  /** issues and merge requests; null for snippets */
  iid: number | null;
  title: string;
  confidential: boolean;
  authorId: number | null;
  /** a snippet's visibility */
  visibility: string | null;
  assigneeIds: number[];
}

export interface PageTargets {
  notes: Map<number, Note>;
  /** by `${kind}:${id}` */
  records: Map<string, TargetFacts>;
}

export const targetKey = (kind: string, id: number) => `${kind}:${id}`;

/** constants as SQL literals (PostgreSQL cannot type a bare parameter in a UNION's select list) */
const literal = (text: string) => Prisma.raw(`'${text}'`);
const idList = (ids: number[]) => Prisma.join(ids.length ? ids : [-1]);

export async function loadPageTargets(ctx: DomainContext, events: Event[]): Promise<PageTargets> {
  const idsOf = (match: (type: string | null) => boolean) => [...new Set(events.filter((e) => e.targetId !== null && match(e.targetType)).map((e) => e.targetId!))];
  const noteIds = idsOf(isNoteTarget);
  const direct = { Issue: idsOf((t) => t === "Issue"), MergeRequest: idsOf((t) => t === "MergeRequest") };
  if (!noteIds.length && !direct.Issue.length && !direct.MergeRequest.length) return { notes: new Map(), records: new Map() };
  const [notes, rows] = await Promise.all([
    noteIds.length ? ctx.db.note.findMany({ where: { id: { in: noteIds } } }) : [],
    ctx.db.$queryRaw<FactRow[]>(factsQuery(direct.Issue, direct.MergeRequest, noteIds)),
  ]);
  const records = new Map<string, TargetFacts>();
  for (const row of rows) {
    if (row.kind === "assignee") continue;
    const kind = row.kind as TargetFacts["kind"];
    records.set(targetKey(kind, Number(row.id)), {
      kind, id: Number(row.id), iid: row.iid === null ? null : Number(row.iid), title: row.title ?? "",
      confidential: Number(row.flag) === 1, authorId: row.authorId === null ? null : Number(row.authorId), visibility: row.extra, assigneeIds: [],
    });
  }
  for (const row of rows) {
    if (row.kind === "assignee") records.get(targetKey("Issue", Number(row.id)))?.assigneeIds.push(Number(row.iid));
  }
  return { notes: new Map(notes.map((note) => [note.id, note])), records };
}

interface FactRow {
  kind: string;
  id: number | bigint;
  iid: number | bigint | null;
  title: string | null;
  flag: number | bigint | boolean;
  authorId: number | bigint | null;
  extra: string | null;
}

function factsQuery(issueIds: number[], mergeRequestIds: number[], noteIds: number[]): Prisma.Sql {
  const notes = idList(noteIds);
  const viaNotes = (type: string) => Prisma.sql`SELECT "noteableId" FROM "Note" WHERE "id" IN (${notes}) AND "noteableType" = ${type}`;
  const issues = Prisma.sql`"id" IN (${idList(issueIds)}) OR "id" IN (${viaNotes("Issue")})`;
  return Prisma.sql`SELECT ${literal("Issue")} AS "kind", "id", "iid", "title", CASE WHEN "confidential" THEN 1 ELSE 0 END AS "flag", "authorId", NULL AS "extra"
      FROM "Issue" WHERE ${issues}
    UNION ALL SELECT ${literal("assignee")}, "issueId", "userId", NULL, 0, NULL, NULL
      FROM "IssueAssignee" WHERE "issueId" IN (SELECT "id" FROM "Issue" WHERE ${issues})
    UNION ALL SELECT ${literal("MergeRequest")}, "id", "iid", "title", 0, "authorId", NULL
      FROM "MergeRequest" WHERE "id" IN (${idList(mergeRequestIds)}) OR "id" IN (${viaNotes("MergeRequest")})
    UNION ALL SELECT ${literal("Snippet")}, "id", NULL, "title", 0, "authorId", "visibility"
      FROM "Snippet" WHERE "id" IN (${viaNotes("Snippet")})`;
}
