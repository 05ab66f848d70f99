// GET /projects/:id/repository/commits/:sha/statuses: the statuses of a found commit's pipelines,
// the latest of each name unless `all`, filtered and ordered as GitLab's endpoint does.
import type { CommitStatus } from "../../generated/prisma/client.js";
import type { FoundCommit } from "../repository/commit-api.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";

export interface CommitStatusFilters {
  ref?: string | null;
  stage?: string | null;
  name?: string | null;
  pipeline_id?: number | null;
  all?: boolean | null;
  order_by?: "id" | "pipeline_id" | null;
  sort?: "asc" | "desc" | null;
}

/** One count and one page; blank filters filter nothing (`present?`). */
export function listCommitStatuses(ctx: DomainContext, { access, commit }: FoundCommit, filters: CommitStatusFilters, page: PageArgs): Promise<Page<CommitStatus>> {
  const where = {
    projectId: access.project.id,
    sha: commit.sha,
    ...(filters.all ? {} : { retried: false }),
    ...(filters.ref ? { ref: filters.ref } : {}),
    ...(filters.stage ? { stage: filters.stage } : {}),
    ...(filters.name ? { name: filters.name } : {}),
    ...(filters.pipeline_id != null ? { pipelineId: filters.pipeline_id } : {}),
  };
  const direction = filters.sort ?? "asc";
  const orderBy = filters.order_by === "pipeline_id" ? [{ pipelineId: direction }, { id: direction }] : [{ id: direction }];
  return paginate(
    page,
    (cap) => ctx.db.commitStatus.count({ where, take: cap }),
    (skip, take) => ctx.db.commitStatus.findMany({ where, orderBy, skip, take }),
  );
}
