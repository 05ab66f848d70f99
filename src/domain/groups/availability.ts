// Whether a namespace path is taken at one level of the hierarchy, and GitLab's suggestion of a
// free one (GET /namespaces/:namespace/exists; Namespace.clean_path with Gitlab::Slug::Path,
// Namespaces::RandomizedSuffixPath and Gitlab::Utils::Uniquify).
import type { DomainContext } from "../shared/context.js";
import { requireAuthenticated } from "../shared/guards.js";
import { containsText } from "../shared/paths.js";
import { checkRateLimit } from "../shared/rate-limit.js";

/** GitLab's `namespace_exists` rate limit: checks per user and minute. */
export const NAMESPACE_EXISTS_PER_MINUTE = 20;

export interface PathAvailability {
  exists: boolean;
  /** a free path like the one asked for when it is taken (one), else none */
  suggests: string[];
}

/**
 * Is `path` the path (in any case) of a namespace directly under `parentId` (top-level ones,
 * personal namespaces among them, without a parent)? Anyone signed in may ask, about any parent.
 */
export async function namespacePathAvailability(ctx: DomainContext, path: string, parentId: number | null): Promise<PathAvailability> {
  const { user } = requireAuthenticated(ctx);
  await checkRateLimit(ctx.db, ctx.now(), `namespace_exists:${user.id}`, NAMESPACE_EXISTS_PER_MINUTE);
  if (!(await pathTaken(ctx, path, parentId))) return { exists: false, suggests: [] };
  return { exists: true, suggests: [await freePathLike(ctx, path, parentId)] };
}

async function pathTaken(ctx: DomainContext, path: string, parentId: number | null): Promise<boolean> {
  const lower = path.toLowerCase();
  if (parentId === null) return (await ctx.db.namespace.count({ where: { parentId: null, fullPathLower: lower } })) > 0;
  // a child's full path ends in "/<its path>"; LIKE's wildcards only widen the rows, checked here
  const rows = await ctx.db.namespace.findMany({ where: { parentId, fullPathLower: { endsWith: `/${lower}` } }, select: { path: true } });
  return rows.some((row) => row.path.toLowerCase() === lower);
}

/**
 * `Namespace.clean_path(path, limited_to: the namespaces beside it)`: the path made valid, then
 * the first of it, it + 1 ... it + 4, then it + a number from the clock, that no namespace beside
 * it has as path or name (in any case). One query: the neighbours whose path or name contains it.
 */
async function freePathLike(ctx: DomainContext, path: string, parentId: number | null): Promise<string> {
  const slug = pathSlug(path);
  const neighbours = await ctx.db.namespace.findMany({
    where: { parentId, OR: [{ path: containsText(ctx.dialect, slug) }, { name: containsText(ctx.dialect, slug) }] },
    select: { path: true, name: true },
  });
  const taken = new Set(neighbours.flatMap((n) => [n.path.toLowerCase(), n.name.toLowerCase()]));
  const now = ctx.now();
  for (let count = 0; ; count++) {
    const candidate = `${slug}${suffix(count, now)}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** Tries after which Namespaces::RandomizedSuffixPath stops counting and takes the clock. */
const COUNTED_TRIES = 4;

/** Nothing on the first try, then 1 to 4, then the clock's number plus the tries past those. */
function suffix(count: number, now: Date): string {
  if (count === 0) return "";
  if (count <= COUNTED_TRIES) return String(count);
  const clock = `${pad(now.getUTCMilliseconds(), 3)}${pad(now.getUTCMinutes(), 2)}${pad(isoWeek(now), 2)}`.replace(/^0+/, "");
  return String(Number(clock || "0") + count - COUNTED_TRIES - 1);
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The ISO 8601 week of the year (strftime's %V), in UTC. */
function isoWeek(date: Date): number {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  day.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7)); // the Thursday of its week
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
}

/** Characters a namespace path may hold; anything else is dropped (Gitlab::Slug::Path). */
const FORBIDDEN_CHARACTERS = /[^a-zA-Z0-9_\-.]/g;
const TRAILING_VIOLATIONS = [".git", ".atom", "."];

/**
 * Gitlab::Slug::Path: an e-mail address's local part, only the allowed characters, without
 * trailing ".git", ".atom" or "." (repeatedly) nor leading dashes; "blank" when nothing is left.
 */
export function pathSlug(input: string): string {
  let slug = input.replace(/@.*$/, "").replace(FORBIDDEN_CHARACTERS, "");
  for (let before = ""; before !== slug; ) {
    before = slug;
    for (const ending of TRAILING_VIOLATIONS) if (slug.endsWith(ending)) slug = slug.slice(0, -ending.length);
  }
  slug = slug.replace(/^-+/, "");
  return slug || "blank";
}
