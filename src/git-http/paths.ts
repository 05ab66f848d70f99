// The URLs of git's smart HTTP protocol on a project: `/<namespace>/<project>.git/info/refs`,
// `.../git-upload-pack` and `.../git-receive-pack` (also without `.git`).
export type GitAction = "info/refs" | "git-upload-pack" | "git-receive-pack";

export interface GitRoute {
  /** the project's full path as the client wrote it, without `.git` */
  fullPath: string;
  action: GitAction;
  /** the path named the repository with `.git` */
  dotGit: boolean;
}

const ACTIONS: GitAction[] = ["info/refs", "git-upload-pack", "git-receive-pack"];

/** The git route of a request, or null for every other URL (left to the rest of the server). */
export function gitRoute(method: string | undefined, url: string | undefined): GitRoute | null {
  if (!url || (method !== "GET" && method !== "HEAD" && method !== "POST")) return null;
  const pathname = url.split("?", 1)[0]!;
  const action = ACTIONS.find((a) => pathname.endsWith(`/${a}`));
  if (!action || (action === "info/refs") !== (method !== "POST")) return null;
  let repository: string;
  try {
    repository = decodeURIComponent(pathname.slice(1, -(action.length + 1)));
  } catch {
    return null;
  }
  const dotGit = repository.endsWith(".git");
  const fullPath = dotGit ? repository.slice(0, -4) : repository;
  // a project lives in a namespace: at least two segments, none empty
  if (!/^[^/]+(\/[^/]+)+$/.test(fullPath) || fullPath.includes("\0")) return null;
  if (fullPath.startsWith("api/") || fullPath.startsWith("-/") || fullPath.startsWith("oauth/")) return null;
  return { fullPath, action, dotGit };
}
