// Web URLs of repository objects (GitLab's project_tree_url and commit URLs), with the project
// paths of a request loaded in one query.
import DataLoader from "dataloader";
import type { DomainContext } from "../context.js";

const pathLoaders = new WeakMap<DomainContext, DataLoader<number, string>>();

function projectPaths(ctx: DomainContext): DataLoader<number, string> {
  let loader = pathLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const rows = await ctx.db.project.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, path: true, namespace: { select: { fullPath: true } } },
      });
      const byId = new Map(rows.map((row) => [row.id, `${row.namespace.fullPath}/${row.path}`]));
      return ids.map((id) => byId.get(id) ?? "");
    });
    pathLoaders.set(ctx, loader);
  }
  return loader;
}

export async function commitWebUrl(ctx: DomainContext, projectId: number, sha: string): Promise<string> {
  return `${ctx.config.publicUrl}/${await projectPaths(ctx).load(projectId)}/-/commit/${sha}`;
}

export async function branchWebUrl(ctx: DomainContext, projectId: number, name: string): Promise<string> {
  return `${ctx.config.publicUrl}/${await projectPaths(ctx).load(projectId)}/-/tree/${name}`;
}
