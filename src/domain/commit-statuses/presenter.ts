// What the commit entities show of the statuses: the latest pipeline of a commit (GitLab's
// Commit#latest_pipeline, the newest of its sha) as `last_pipeline`, and its status as the
// commit's `status` for callers with read_commit_status.
import DataLoader from "dataloader";
import type { CiPipeline } from "../../generated/prisma/client.js";
import { projectObjectWebUrl } from "../repository/urls.js";
import type { DomainContext } from "../shared/context.js";
import type { LoaderFactory } from "../shared/loaders.js";

/** The newest pipeline of each `projectId:sha`, one statement per project of the batch. */
const latestPipelineLoader: LoaderFactory<DataLoader<string, CiPipeline | null>> = (services) =>
  new DataLoader(async (keys) => {
    const byProject = new Map<number, string[]>();
    for (const key of keys) {
      const [projectId, sha] = key.split(":") as [string, string];
      byProject.set(Number(projectId), [...(byProject.get(Number(projectId)) ?? []), sha]);
    }
    const latest = new Map<string, CiPipeline>();
    for (const [projectId, shas] of byProject) {
      const rows = await services.db.ciPipeline.findMany({ where: { projectId, sha: { in: shas } }, orderBy: { id: "asc" } });
      for (const row of rows) latest.set(`${projectId}:${row.sha}`, row);
    }
    return keys.map((key) => latest.get(key) ?? null);
  });

/**
 * CommitDetail's `last_pipeline` (read_pipeline) and `status` (read_commit_status, the latest
 * pipeline's status) of a commit shown to the caller. Whoever may read a repository's commits may
 * read both: read_code needs the repository available to the caller, which read_commit_status
 * needs too, and beyond it public_access or Reporter, which read_code of a private project needs;
 * pipelines are public (GitLab's default public_builds), so read_pipeline follows.
 */
export function latestPipeline(ctx: DomainContext, projectId: number, sha: string): Promise<CiPipeline | null> {
  return ctx.loaders.get(latestPipelineLoader).load(`${projectId}:${sha}`);
}

/** The pipeline's page (project_pipeline_url). */
export async function pipelineWebUrl(ctx: DomainContext, pipeline: Pick<CiPipeline, "id" | "projectId">): Promise<string> {
  return projectObjectWebUrl(ctx, pipeline.projectId, "pipelines", pipeline.id);
}
