// Web URLs of repository objects (GitLab's commit and project_tree URLs). Their rows carry only
// the project id, so the project paths of a request are loaded in one query. And SSH clone URLs.
import DataLoader from "dataloader";
import type { Config } from "../../config.js";
import type { DomainContext } from "../shared/context.js";
import type { LoaderFactory } from "../shared/loaders.js";
import { projectPageUrl } from "../shared/web-urls.js";

type ProjectPath = { path: string; namespace: { fullPath: string } };

/** Project paths by id, for the URLs of a page of repository objects. */
const projectPathLoader: LoaderFactory<DataLoader<number, ProjectPath>> = (services) =>
  new DataLoader(async (ids) => {
    const rows = await services.db.project.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, path: true, namespace: { select: { fullPath: true } } },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? new Error(`project ${id} does not exist`));
  });

/** Tells the URLs of a request a project's path it already holds (a release list's commits), so none is read again. */
export function knownProjectPath(ctx: DomainContext, project: ProjectPath & { id: number }): void {
  ctx.loaders.get(projectPathLoader).prime(project.id, project);
}

const projectPath = (ctx: DomainContext, projectId: number) => ctx.loaders.get(projectPathLoader).load(projectId);

export async function commitWebUrl(ctx: DomainContext, projectId: number, sha: string): Promise<string> {
  return projectPageUrl(ctx, await projectPath(ctx, projectId), "commit", sha);
}

/** The page of anything else of a project by its project id (`<project>/-/pipelines/1`). */
export async function projectObjectWebUrl(ctx: DomainContext, projectId: number, kind: string, id: string | number): Promise<string> {
  return projectPageUrl(ctx, await projectPath(ctx, projectId), kind, id);
}

export async function branchWebUrl(ctx: DomainContext, projectId: number, name: string): Promise<string> {
  return projectPageUrl(ctx, await projectPath(ctx, projectId), "tree", name);
}

/**
 * GitLab's gitlab_shell.ssh_path_prefix (Settings.build_gitlab_shell_ssh_path_prefix): `git@host:`
 * on the standard SSH port, `ssh://git@host:port/` on another; the HTTP port never appears.
 */
export function sshPathPrefix(config: Pick<Config, "sshHost" | "sshPort">): string {
  const ipv6 = config.sshHost.includes(":");
  if (config.sshPort !== 22) return `ssh://git@${ipv6 ? `[${config.sshHost}]` : config.sshHost}:${config.sshPort}/`;
  return ipv6 ? `[git@${config.sshHost}]:` : `git@${config.sshHost}:`;
}

/** `ssh_url_to_repo` of the repository at `repositoryPath` (`group/project`, `group/project/snippets/1`). */
export const sshUrlToRepo = (ctx: Pick<DomainContext, "config">, repositoryPath: string) => `${sshPathPrefix(ctx.config)}${repositoryPath}.git`;
