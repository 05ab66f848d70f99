// Web addresses of projects and of the pages of things in them, which many resources' entities
// show (repository objects, issues, merge requests, snippets, hook payloads). Kept low so that none
// of them imports the projects module for a URL.
import type { DomainContext } from "./context.js";

export type ProjectPath = { path: string; namespace: { fullPath: string } };

export function projectFullPath(project: ProjectPath) {
  return `${project.namespace.fullPath}/${project.path}`;
}

/** The project's page (`web_url`); its git URLs and its objects' pages start from it. */
export function projectWebUrl(ctx: Pick<DomainContext, "config">, project: ProjectPath): string {
  return `${ctx.config.publicUrl}/${projectFullPath(project)}`;
}

/** The page of something in the project: `<project web url>/-/<kind>/<id>` (issues, merge_requests, snippets, commit, tree). */
export function projectPageUrl(ctx: Pick<DomainContext, "config">, project: ProjectPath, kind: string, id: string | number): string {
  return `${projectWebUrl(ctx, project)}/-/${kind}/${id}`;
}
