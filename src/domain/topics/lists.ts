// GET /topics as GitLab's Projects::TopicsFinder lists them: one organization, most non-private
// projects first (then id), optionally only topics without projects; a search matches name or
// title (Gitlab::SQL::Pattern's fuzzy_search) and orders by trigram similarity to the name.
import type { Prisma, Topic } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { containsText, ignoringCase, MIN_CHARS_FOR_PARTIAL_MATCHING } from "../shared/paths.js";
import { DEFAULT_ORGANIZATION_ID } from "./assignments.js";
import { requireOrganization } from "./queries.js";

export interface TopicFilters {
  search?: string | null;
  without_projects?: boolean | null;
  organization_id?: number | null;
}

const ORDER: Prisma.TopicOrderByWithRelationInput[] = [{ nonPrivateProjectsCount: "desc" }, { id: "asc" }];

export async function listTopics(ctx: DomainContext, filters: TopicFilters, page: PageArgs): Promise<Page<Topic>> {
  const organizationId = requireOrganization(filters.organization_id ?? DEFAULT_ORGANIZATION_ID);
  const where: Prisma.TopicWhereInput = { organizationId, ...(filters.without_projects ? { totalProjectsCount: 0 } : {}) };
  const search = filters.search ?? "";
  if (!search.trim()) {
    return paginate(
      page,
      (cap) => ctx.db.topic.count({ where, take: cap }),
      (skip, take) => ctx.db.topic.findMany({ where, orderBy: ORDER, skip, take }),
    );
  }
  const found = await searchTopics(ctx, where, search);
  return paginate(page, async () => found.length, async (skip, take) => found.slice(skip, skip + take));
}

/**
 * `fuzzy_search(query, [:name, :title])` reordered by similarity (GitLab computes that score for
 * the matching rows only, as here). The database narrows the rows with a case-insensitive LIKE;
 * the exact rule is applied below.
 */
async function searchTopics(ctx: DomainContext, where: Prisma.TopicWhereInput, search: string): Promise<Topic[]> {
  const query = squish(search);
  const terms = searchTerms(query);
  const narrowed: Prisma.TopicWhereInput = terms.length
    ? { OR: [{ AND: terms.map((t) => ({ nameLower: { contains: t.toLowerCase() } })) }, { AND: terms.map((t) => ({ title: containsText(ctx.dialect, t) })) }] }
    : { OR: [{ nameLower: query.toLowerCase() }, { title: ignoringCase(ctx.dialect, { startsWith: query, endsWith: query }) }] };
  const rows = await ctx.db.topic.findMany({ where: { AND: [where, narrowed] } });
  const matches = (value: string) => {
    const lower = value.toLowerCase();
    return terms.length ? terms.every((t) => lower.includes(t.toLowerCase())) : lower === query.toLowerCase();
  };
  const scored = rows.filter((row) => matches(row.name) || matches(row.title)).map((row) => ({ row, score: similarity(row.name, search) }));
  scored.sort((a, b) => b.score - a.score || b.row.nonPrivateProjectsCount - a.row.nonPrivateProjectsCount || a.row.id - b.row.id);
  return scored.map((s) => s.row);
}

/** Ruby's String#squish: surrounding whitespace removed, inner runs collapsed to one space. */
const squish = (text: string) => text.trim().replace(/\s+/g, " ");

const QUOTED_TERM = /(?<=^| )"[^"]+"(?= |$)/g;

/**
 * Gitlab::SQL::Pattern: the query's words and "quoted phrases" of at least three characters,
 * each of which must occur in the same column. With none, the whole query must equal the value.
 */
export function searchTerms(query: string): string[] {
  const quoted: string[] = [];
  const rest = query.replace(QUOTED_TERM, (term) => {
    quoted.push(term.slice(1, -1));
    return "";
  });
  return [...rest.split(/\s+/).filter(Boolean), ...quoted].filter((term) => term.length >= MIN_CHARS_FOR_PARTIAL_MATCHING);
}

/**
 * pg_trgm's similarity(): the words (runs of letters and digits, lower-cased) padded with two
 * spaces in front and one behind, cut into trigrams; shared trigrams over all distinct trigrams,
 * as a float4.
 */
export function similarity(a: string, b: string): number {
  const first = trigrams(a);
  const second = trigrams(b);
  if (!first.size || !second.size) return 0;
  let shared = 0;
  for (const trigram of first) if (second.has(trigram)) shared++;
  return Math.fround(shared / (first.size + second.size - shared));
}

function trigrams(text: string): Set<string> {
  const result = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = [" ", " ", ...word, " "];
    for (let i = 0; i + 3 <= padded.length; i++) result.add(padded.slice(i, i + 3).join(""));
  }
  return result;
}
