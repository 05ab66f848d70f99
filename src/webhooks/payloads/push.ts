// Push and tag push payloads (Gitlab::DataBuilder::Push), with the spec's field list: the newest
// 20 commits, oldest first, each with its changed paths; the full count in total_commits_count.
import type { User } from "../../generated/prisma/client.js";
import type { PushedCommit, Tx } from "../../domain/shared/events.js";
import { BLANK_SHA } from "../../domain/shared/events.js";
import { projectPageUrl } from "../../domain/shared/web-urls.js";
import { protectedBranchesMatching } from "../../domain/repository/protection-rules.js";
import { avatarUrlOfUser } from "../../domain/users/presenter.js";
import { projectHookAttrs, repositoryAttrs, type Ctx, type ProjectWithNamespace } from "./common.js";

export const MAX_PUSH_COMMITS = 20;

export interface PushData {
  project: ProjectWithNamespace;
  user: User | null;
  /** refs/heads/<branch> or refs/tags/<tag> */
  ref: string;
  before: string;
  after: string;
  /** the pushed commits, oldest first (only the newest 20 are described) */
  commits: PushedCommit[];
  totalCommits: number;
  refProtected: boolean;
  /** a tag push: the annotated tag's message, and the commit the tag points at */
  message?: string | null;
  checkoutSha?: string | null;
}

export function buildPushPayload(ctx: Ctx, data: PushData) {
  const kind = data.ref.startsWith("refs/tags/") ? "tag_push" : "push";
  return {
    object_kind: kind,
    event_name: kind,
    before: data.before,
    after: data.after,
    ref: data.ref,
    ref_protected: data.refProtected,
    checkout_sha: data.checkoutSha !== undefined ? data.checkoutSha : data.after === BLANK_SHA ? null : data.after,
    message: data.message ?? null,
    user_id: data.user?.id ?? null,
    user_name: data.user?.name ?? null,
    user_username: data.user?.username ?? null,
    user_email: null, // the user's public e-mail: users here have none
    user_avatar: data.user ? avatarUrlOfUser(ctx, data.user) : null,
    project_id: data.project.id,
    project: projectHookAttrs(ctx, data.project),
    commits: data.commits.slice(-MAX_PUSH_COMMITS).map((commit) => commitHookAttrs(ctx, data.project, commit)),
    total_commits_count: data.totalCommits,
    push_options: {},
    repository: repositoryAttrs(ctx, data.project),
  };
}

/** What Commit#hook_attrs reads of a commit; a push payload's commits also carry their changed files. */
export type HookCommit = Pick<PushedCommit, "sha" | "message" | "authorName" | "authorEmail" | "committedAt" | "committerTimezone">
  & Partial<Pick<PushedCommit, "added" | "modified" | "removed">>;

/** Commit#title: the first line, cut to 80 characters and "..." when it is 100 or longer. */
function hookTitle(message: string): string {
  const line = message.split("\n", 1)[0]!.replace(/\r$/, "");
  return line.length >= 100 ? `${line.slice(0, 80)}...` : line;
}

/** Time#xmlschema in the committer's offset ("2011-12-12T14:27:31+02:00"). */
function xmlschema(date: Date, timezone: string): string {
  const sign = timezone.startsWith("-") ? -1 : 1;
  const minutes = sign * (Number(timezone.slice(1, 3)) * 60 + Number(timezone.slice(3, 5)));
  const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, 19);
  return `${local}${sign < 0 ? "-" : "+"}${timezone.slice(1, 3)}:${timezone.slice(3, 5)}`;
}

/** Commit#hook_attrs: push payloads ask for the changed files, a merge request's last_commit does not. */
export function commitHookAttrs(ctx: Ctx, project: ProjectWithNamespace, commit: HookCommit, withChangedFiles = true) {
  const attrs = {
    id: commit.sha,
    message: commit.message,
    title: hookTitle(commit.message),
    timestamp: xmlschema(commit.committedAt, commit.committerTimezone),
    url: projectPageUrl(ctx, project, "commit", commit.sha),
    author: { name: commit.authorName, email: commit.authorEmail },
  };
  if (!withChangedFiles) return attrs;
  return { ...attrs, added: commit.added ?? [], modified: commit.modified ?? [], removed: commit.removed ?? [] };
}

/** Whether a protected branch rule (exact name or wildcard) covers the branch. */
export async function isProtectedBranch(db: Tx, projectId: number, branch: string): Promise<boolean> {
  return (await protectedBranchesMatching(db, projectId, branch)).length > 0;
}
