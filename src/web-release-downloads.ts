// A release asset's permanent link as GitLab shows it (`direct_asset_url`):
// /<project path>/-/releases/<tag>/downloads/<direct asset path> redirects (302) to the link's URL,
// for whoever may read the project's code (a token is read as the API reads it).
import { createContext } from "./context.js";
import { admittingScopes } from "./domain/auth/callers.js";
import type { Services } from "./domain/shared/context.js";
import { findLinkByAssetPath, findRelease } from "./domain/releases/queries.js";
import { appErrorOf } from "./errors.js";
import { errorResponse } from "./rest/render.js";

const PATTERN = /^\/(?!-\/|api\/|groups\/)(.+\/[^/]+)\/-\/releases\/([^/]+)\/downloads\/(.+)$/;
export const RELEASE_DOWNLOAD_ROUTE = "/*project/-/releases/:tag/downloads/*direct_asset_path";

export interface ReleaseDownloadPath {
  project: string;
  tag: string;
  assetPath: string;
}

/** The release download a GET path names, or null (not such a path, or a malformed encoding). */
export function releaseDownloadPathOf(pathname: string): ReleaseDownloadPath | null {
  const match = PATTERN.exec(pathname);
  if (!match) return null;
  try {
    const [project, tag, assetPath] = match.slice(1).map((part) => decodeURIComponent(part!));
    return { project: project!, tag: tag!, assetPath: assetPath! };
  } catch {
    return null;
  }
}

export async function redirectToReleaseAsset(services: Services, request: Request, path: ReleaseDownloadPath): Promise<Response> {
  try {
    const ctx = await createContext(services, request, undefined, admittingScopes("read"));
    const { link } = await findLinkByAssetPath(ctx, await findRelease(ctx, path.project, path.tag), path.assetPath);
    return new Response(null, { status: 302, headers: { Location: link.url } });
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    return errorResponse(appError);
  }
}
