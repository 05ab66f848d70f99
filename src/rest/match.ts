// Matching a raw request path against the route table. Segments are compared before decoding,
// so an encoded slash (%2F) stays inside one parameter and an unencoded one matches nothing. A
// segment may also be a literal prefix followed by a parameter (`archive.:format`, Grape's
// `(.:format)`): it matches a segment that starts with the prefix and has something after it.
import type { Route } from "./routes.js";

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
}

export function createMatcher(routes: Route[]) {
  const compiled: CompiledRoute[] = routes.map((route) => ({ route, segments: split(route.path) }));
  return (method: string, rawPath: string): RouteMatch | null => {
    const segments = split(rawPath);
    let best: RouteMatch | null = null;
    let bestStatic = -1;
    for (const candidate of compiled) {
      if (candidate.route.method !== method || candidate.segments.length !== segments.length) continue;
      const params = matchSegments(candidate.segments, segments);
      if (!params) continue;
      const staticCount = candidate.segments.filter((s) => !s.startsWith(":")).length;
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
