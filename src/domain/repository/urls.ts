// Web URLs of repository objects (GitLab's commit and project_tree URLs). Their rows carry only
// the project id, so the project paths of a request are loaded in one query.
import DataLoader from "dataloader";
import type { DomainContext } from "../context.js";
import { projectPageUrl } from "../projects.js";

type ProjectPath = { path: string; namespace: { fullPath: string } };

const pathLoaders = new WeakMap<DomainContext, DataLoader<number, ProjectPath>>();

function projectPath(ctx: DomainContext, projectId: number): Promise<ProjectPath> {
  let loader = pathLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const rows = await ctx.db.project.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, path: true, namespace: { select: { fullPath: true } } },
      });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? new Error(`project ${id} does not exist`));
    });
    pathLoaders.set(ctx, loader);
  }
  return loader.load(projectId);
}

export async function commitWebUrl(ctx: DomainContext, projectId: number, sha: string): Promise<string> {
  return projectPageUrl(ctx, await projectPath(ctx, projectId), "commit", sha);
}

export async function branchWebUrl(ctx: DomainContext, projectId: number, name: string): Promise<string> {
  return projectPageUrl(ctx, await projectPath(ctx, projectId), "tree", name);
}
