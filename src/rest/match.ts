// Matching a raw request path against the route table. Segments are compared before decoding,
// so an encoded slash (%2F) stays inside one parameter and an unencoded one matches nothing. A
// segment may also be a literal prefix followed by a parameter (`archive.:format`, Grape's
// `(.:format)`): it matches a segment that starts with the prefix and has something after it. A
// last segment `*name` (Grape's glob) takes the rest of the path, one segment or more, each decoded
// and joined with `/` (`/downloads/bin/linux/tool`: `bin/linux/tool`).
import type { Route } from "./routes.js";

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
  /** the last segment is a `*name` glob */
  glob: boolean;
}

export const isGlob = (segment: string) => segment.startsWith("*");
const isParam = (segment: string) => segment.startsWith(":") || isGlob(segment);

export function createMatcher(routes: Route[]) {
  const compiled: CompiledRoute[] = routes.map((route) => {
    const segments = split(route.path);
    return { route, segments, glob: isGlob(segments.at(-1) ?? "") };
  });
  return (method: string, rawPath: string): RouteMatch | null => {
    const segments = split(rawPath);
    let best: RouteMatch | null = null;
    let bestStatic = -1;
    for (const candidate of compiled) {
      if (candidate.route.method !== method) continue;
      if (candidate.glob ? segments.length < candidate.segments.length : candidate.segments.length !== segments.length) continue;
      const params = candidate.glob ? matchGlob(candidate.segments, segments) : matchSegments(candidate.segments, segments);
      if (!params) continue;
      const staticCount = candidate.segments.filter((s) => !isParam(s)).length;
      if (staticCount > bestStatic) {
        best = { route: candidate.route, params };
        bestStatic = staticCount;
      }
    }
    return best;
  };
}

/** Repeated slashes collapse, as GitLab's router does (`/features//name`). */
function split(path: string): string[] {
  return path.split("/").filter(Boolean);
}

export const collapseSlashes = (path: string) => path.replace(/\/{2,}/g, "/");

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const a = actual[i]!;
    const colon = p.indexOf(":");
    if (colon === -1) {
      if (p !== a) return null;
      continue;
    }
    const prefix = p.slice(0, colon);
    if (!a.startsWith(prefix) || a.length === prefix.length) return null;
    try {
      params[p.slice(colon + 1)] = decodeURIComponent(a.slice(prefix.length));
    } catch {
      return null;
    }
  }
  return params;
}

/** A pattern ending in `*name`: the segments before it as usual, then the rest joined. */
function matchGlob(pattern: string[], actual: string[]): Record<string, string> | null {
  const head = pattern.length - 1;
  const params = matchSegments(pattern.slice(0, head), actual.slice(0, head));
  if (!params) return null;
  try {
    params[pattern[head]!.slice(1)] = actual.slice(head).map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
  return params;
}
