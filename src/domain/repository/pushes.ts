// A push over git, as one ref update (ref-updates.ts) spanning git receive-pack's hooks: the
// pre-receive hook takes the repository's lock, checks every ref (git-access.ts) and marks the
// update as under way; git moves the refs; the post-receive hook records them and answers the
// lines GitLab prints after a push; the lock is released when receive-pack ends, and whatever git
// did is recorded then if the post-receive hook never came (a refused ref, a client gone).
import type { Release } from "../../git/locks.js";
import { NULL_SHA } from "../../git/objects.js";
import type { DomainContext } from "../shared/context.js";
import { featureAvailable } from "../shared/project-features.js";
import { projectFullPath, projectPageUrl } from "../shared/web-urls.js";
import { refusalOfPush, type GitProject, type PushedRef } from "./git-access.js";
import { beginRefUpdate, BRANCH_PREFIX, recordRefs } from "./ref-updates.js";

export interface HookVerdict {
  ok: boolean;
  /** lines for the pushing client (git prefixes each with "remote: ") */
  messages: string[];
}

/** Each message as Gitaly prints it: after an empty line, followed by one. */
const printed = (messages: string[]) => messages.flatMap((message) => ["", ...message.split("\n"), ""]);

export class PushSession {
  private release: Release | null = null;
  private refs: PushedRef[] = [];
  private recorded = false;

  constructor(
    private readonly ctx: DomainContext,
    private readonly target: GitProject,
  ) {}

  private get projectId(): number {
    return this.target.access.project.id;
  }

  /** pre-receive: the refs may move, or the first refusal's message. */
  async preReceive(refs: PushedRef[], quarantineEnv: Record<string, string>): Promise<HookVerdict> {
    this.release ??= await this.ctx.repositoryLocks.acquire(this.projectId);
    try {
      const refusal = await refusalOfPush(this.ctx, this.target.access, refs, { env: quarantineEnv });
      if (refusal) {
        await this.unlock();
        return { ok: false, messages: [`GitLab: ${refusal}`] };
      }
      this.refs = refs;
      await beginRefUpdate(this.ctx, this.projectId, this.ctx.actor?.user.id ?? null);
      return { ok: true, messages: [] };
    } catch (error) {
      await this.unlock();
      throw error;
    }
  }

  /** post-receive: the moved refs recorded (push events), and GitLab's messages after a push. */
  async postReceive(refs: PushedRef[]): Promise<HookVerdict> {
    // git moved these refs to these values, and nothing else may move them while the lock is held
    await this.record(refs.map((r) => r.ref), new Map(refs.map((r) => [r.ref, r.newSha])));
    return { ok: true, messages: printed(await this.messagesAfterPush(refs)) };
  }

  /**
   * receive-pack ended: whatever git did is recorded (again, if the post-receive hook failed to),
   * and the repository is free again. A recording that fails here too leaves the pending update
   * for the repair (reconcile.ts).
   */
  async finish(): Promise<void> {
    if (!this.release) return;
    try {
      if (!this.recorded && this.refs.length) await this.record(this.refs.map((r) => r.ref));
    } finally {
      await this.unlock();
    }
  }

  private async record(refNames: string[], known?: ReadonlyMap<string, string>): Promise<void> {
    await recordRefs(this.ctx, this.projectId, refNames, { actorId: this.ctx.actor?.user.id ?? null }, known);
    this.recorded = true;
  }

  private async unlock(): Promise<void> {
    const release = this.release;
    this.release = null;
    await release?.();
  }

  /**
   * MergeRequests::GetUrlsService for each pushed branch but the default one (a link to its open
   * merge request, or to create one), then the "project moved" notice.
   */
  private async messagesAfterPush(refs: PushedRef[]): Promise<string[]> {
    const { project } = this.target.access;
    const messages: string[] = [];
    const branches = refs
      .filter((r) => r.ref.startsWith(BRANCH_PREFIX) && r.newSha !== NULL_SHA)
      .map((r) => r.ref.slice(BRANCH_PREFIX.length))
      .filter((branch) => branch !== project.defaultBranch);
    if (branches.length && featureAvailable(this.ctx, this.target.access, "merge_requests")) {
      const open = await this.ctx.db.mergeRequest.findMany({
        where: { projectId: project.id, sourceBranch: { in: branches }, state: "opened" },
        select: { iid: true, sourceBranch: true },
        orderBy: { id: "asc" },
      });
      for (const branch of branches) {
        const mr = open.find((m) => m.sourceBranch === branch);
        messages.push(mr
          ? `View merge request for ${branch}:\n  ${projectPageUrl(this.ctx, project, "merge_requests", mr.iid)}`
          : `To create a merge request for ${branch}, visit:\n  ${projectPageUrl(this.ctx, project, "merge_requests", "new")}?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}`);
      }
    }
    if (this.target.movedFrom) {
      const url = `${this.ctx.config.publicUrl}/${projectFullPath(project)}.git`;
      messages.push(`Project '${this.target.movedFrom}' was moved to '${projectFullPath(project)}'.\n\nPlease update your Git remote:\n\n  git remote set-url origin ${url}`);
    }
    return messages;
  }
}
