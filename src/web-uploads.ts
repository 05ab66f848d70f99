// Uploads as browsers fetch them from rendered markdown: a project's at
// /<project path>/uploads/<secret>/<file> (the relative link resolved against the project's page)
// and /-/project/<id>/uploads/<secret>/<file>, a group's at /groups/<path>/-/uploads/<secret>/<file>
// and /-/group/<id>/uploads/<secret>/<file>. Served to whoever may see the project or group (a
// token is read as the API reads it), with Workhorse's content headers.
import { createContext } from "./context.js";
import { admittingScopes } from "./domain/auth/callers.js";
import type { Services } from "./domain/shared/context.js";
import { findGroup, findProject, type GroupOrProjectAccess } from "./domain/shared/parents.js";
import { servedUpload } from "./domain/uploads/presenter.js";
import { findUploadBySecret } from "./domain/uploads/queries.js";
import { appErrorOf } from "./errors.js";
import { downloadResponse, errorResponse } from "./rest/render.js";

const PATTERNS: { pattern: RegExp; kind: "project" | "group"; template: string }[] = [
  { pattern: /^\/-\/project\/(\d+)\/uploads\/([^/]+)\/([^/]+)$/, kind: "project", template: "/-/project/:id/uploads/:secret/:filename" },
  { pattern: /^\/-\/group\/(\d+)\/uploads\/([^/]+)\/([^/]+)$/, kind: "group", template: "/-/group/:id/uploads/:secret/:filename" },
  { pattern: /^\/groups\/(.+)\/-\/uploads\/([^/]+)\/([^/]+)$/, kind: "group", template: "/groups/*group/-/uploads/:secret/:filename" },
  { pattern: /^\/(?!-\/|api\/|groups\/)(.+\/[^/]+)\/uploads\/([^/]+)\/([^/]+)$/, kind: "project", template: "/*project/uploads/:secret/:filename" },
];

export interface UploadPath {
  kind: "project" | "group";
  parent: string;
  secret: string;
  filename: string;
  template: string;
}

/** The upload a GET path names, or null when it is not an upload path (or its encoding is malformed). */
export function uploadPathOf(pathname: string): UploadPath | null {
  for (const { pattern, kind, template } of PATTERNS) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    try {
      const [parent, secret, filename] = match.slice(1).map((part) => decodeURIComponent(part!));
      return { kind, parent: parent!, secret: secret!, filename: filename!, template };
    } catch {
      return null;
    }
  }
  return null;
}

export async function serveUpload(services: Services, request: Request, path: UploadPath): Promise<Response> {
  try {
    const ctx = await createContext(services, request, undefined, admittingScopes("read"));
    const parent: GroupOrProjectAccess = path.kind === "project" ? await findProject(ctx, path.parent) : await findGroup(ctx, path.parent);
    const { upload } = await findUploadBySecret(ctx, parent, path.secret, path.filename);
    return downloadResponse(200, await servedUpload(ctx, upload), request.method === "HEAD");
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    return errorResponse(appError);
  }
}
