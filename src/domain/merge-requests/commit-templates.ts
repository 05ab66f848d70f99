// The project's merge and squash commit templates (Gitlab::MergeRequests::MessageGenerator):
// %{variable}s replaced by what the merge request says; a line holding nothing but a variable
// that comes out empty goes away with its line break (and the blank line before it when a blank
// line or the end follows). Only the variables a template names are computed.
import type { DomainContext } from "../shared/context.js";
import { projectPageUrl } from "../shared/web-urls.js";
import type { GitRepository } from "../repository/git.js";
import type { CommitObject } from "../../git/objects.js";
import { referencesOf } from "./fields.js";
import type { MergeRequestRow } from "./queries.js";
import type { Person } from "../repository/merges.js";

/** What the variables are read from, at the moment of the merge. */
export interface TemplateSubject {
  ctx: DomainContext;
  repo: GitRepository;
  mr: MergeRequestRow;
  targetSha: string;
  sourceSha: string;
  /** the user merging */
  mergedBy: Person;
  /** the merge request's author (the squash commit's author) */
  author: Person;
  /** "Closes #1 and #2" when the merge closes issues, else "" */
  closesIssues: string;
}

type Variable = (subject: TemplateSubject, squash: boolean) => string | null | Promise<string | null>;

const recentCommitsOf = new WeakMap<TemplateSubject, Promise<CommitObject[]>>();

/** MergeRequest#recent_commits: the commits the merge brings, newest first, at most 100 (read once per merge). */
function recentCommits(subject: TemplateSubject): Promise<CommitObject[]> {
  let commits = recentCommitsOf.get(subject);
  if (!commits) {
    const { repo, targetSha, sourceSha } = subject;
    commits = repo.revList(["--max-count=100", sourceSha, `^${targetSha}`])
      .then(async (shas) => (await Promise.all(shas.map((sha) => repo.commit(sha)))).filter((commit): commit is CommitObject => commit !== null));
    recentCommitsOf.set(subject, commits);
  }
  return commits;
}

const withoutMerges = (commits: CommitObject[]) => commits.filter((commit) => commit.parents.length < 2);
const hasDescription = (commit: CommitObject) => commit.message.trim().includes("\n");

const VARIABLES: Record<string, Variable> = {
  source_branch: ({ mr }) => mr.sourceBranch,
  target_branch: ({ mr }) => mr.targetBranch,
  title: ({ mr }) => mr.title,
  issues: ({ closesIssues }) => closesIssues,
  description: ({ mr }) => mr.description,
  reference: ({ mr }) => referencesOf(mr.project, mr.iid).full,
  local_reference: ({ mr }) => referencesOf(mr.project, mr.iid).short,
  source_project_id: ({ mr }) => String(mr.projectId),
  url: ({ ctx, mr }) => projectPageUrl(ctx, mr.project, "merge_requests", mr.iid),
  first_commit: async (subject) => (await recentCommits(subject)).at(-1)?.message.trim() ?? null,
  first_multiline_commit: async (subject) =>
    withoutMerges(await recentCommits(subject)).reverse().find(hasDescription)?.message.trim() || subject.mr.title,
  reviewed_by: async ({ ctx, mr }) => {
    const ids = mr.reviewers.filter((reviewer) => reviewer.state !== "unreviewed").map((reviewer) => reviewer.userId);
    return (await usersIn(ctx, ids)).map((user) => `Reviewed-by: ${user.name} <${user.email}>`).join("\n");
  },
  approved_by: async ({ ctx, mr }) => {
    const approvals = await ctx.db.approval.findMany({ where: { mergeRequestId: mr.id }, orderBy: { id: "asc" }, select: { userId: true } });
    return (await usersIn(ctx, approvals.map((approval) => approval.userId))).map((user) => `Approved-by: ${user.name} <${user.email}>`).join("\n");
  },
  merged_by: ({ mergedBy }) => `${mergedBy.name} <${mergedBy.email}>`,
  co_authored_by: async (subject, squash) => {
    const committer = squash ? subject.author : subject.mergedBy;
    const authors = new Map<string, string>();
    for (const commit of await recentCommits(subject)) if (!authors.has(commit.author.email)) authors.set(commit.author.email, commit.author.name);
    authors.delete(committer.email);
    return [...authors].map(([email, name]) => `Co-authored-by: ${name} <${email}>`).join("\n");
  },
  all_commits: async (subject) =>
    withoutMerges(await recentCommits(subject)).map((commit) => `* ${commit.message.trim()}`).join("\n\n"),
};

/** Users by id, in the order given. */
async function usersIn(ctx: DomainContext, ids: number[]): Promise<{ name: string; email: string }[]> {
  const users = await ctx.db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } });
  return ids.flatMap((id) => users.filter((user) => user.id === id));
}

const PLACEHOLDER = new RegExp(`%\\{(${Object.keys(VARIABLES).join("|")})\\}`, "g");
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The template with its variables replaced (MessageGenerator#replace_placeholders). */
export async function renderCommitTemplate(template: string, subject: TemplateSubject, squash: boolean): Promise<string> {
  let message = template.replaceAll("\r", "");
  const used = [...new Set([...message.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
  const values = new Map<string, string>();
  for (const name of used) values.set(`%{${name}}`, (await VARIABLES[name]!(subject, squash)) ?? "");
  const empty = [...values].filter(([, value]) => value.trim() === "").map(([placeholder]) => escape(placeholder));
  if (empty.length) {
    const alternatives = empty.join("|");
    message = message.replace(new RegExp(`\\n\\n(?:${alternatives})(\\n\\n|$|(?=\\n$))`, "g"), "$1");
    message = message.replace(new RegExp(`^(?:${alternatives})\\n`, "gm"), "");
  }
  return message.replace(PLACEHOLDER, (placeholder) => values.get(placeholder) ?? placeholder);
}
