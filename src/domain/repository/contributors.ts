// GET /projects/:id/repository/contributors (Repository#contributors, Commit.order_by): the authors
// of the newest 2,000 commits of a ref, merges left out, one per author email, with the number of
// their commits; additions and deletions are always 0, as GitLab shows them.
import { runGit } from "../../git/command.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { paginateList, type Page, type PageArgs, type SortDirection } from "../shared/pagination.js";
import { requireRepositoryEnabled } from "./access.js";
import { repositoryOf, resolveCommitSha } from "./git.js";

export interface ContributorView {
  name: string;
  email: string;
  commits: number;
  additions: number;
  deletions: number;
}

export type ContributorOrder = "name" | "email" | "commits";

export interface ContributorFilters {
  ref?: string | null;
  order_by?: ContributorOrder | null;
  sort?: SortDirection | null;
}

const COMMITS_READ = 2000;

export async function listContributors(ctx: DomainContext, access: ProjectAccess, filters: ContributorFilters, page: PageArgs): Promise<Page<ContributorView>> {
  requireRepositoryEnabled(ctx, access);
  const repo = repositoryOf(ctx, access.project.id);
  const head = await resolveCommitSha(repo, filters.ref || access.project.defaultBranch);
  // a ref that names nothing has no history, hence no contributors
  const authors = head ? await recentAuthors(repo.gitDir, head) : [];
  return paginateList(sorted(byEmail(authors), filters.order_by ?? "commits", filters.sort ?? "asc"), page);
}

/** Author email and name of the newest non-merge commits, newest first. */
async function recentAuthors(gitDir: string, head: string): Promise<{ email: string; name: string }[]> {
  const out = await runGit(gitDir, ["log", "--no-merges", `--max-count=${COMMITS_READ}`, "--format=%ae%x00%an%x00", "--end-of-options", head]);
  const fields = out.stdout.toString("utf8").split("\0");
  const authors: { email: string; name: string }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) authors.push({ email: fields[i]!.replace(/^\n/, ""), name: fields[i + 1]! });
  return authors;
}

/** One contributor per email, in the order first met; the name is the newest that is not blank. */
function byEmail(authors: { email: string; name: string }[]): ContributorView[] {
  const contributors = new Map<string, ContributorView>();
  for (const { email, name } of authors) {
    const contributor = contributors.get(email) ?? { name: "", email, commits: 0, additions: 0, deletions: 0 };
    if (!contributor.name.trim()) contributor.name = name;
    contributor.commits += 1;
    contributors.set(email, contributor);
  }
  return [...contributors.values()];
}

/** Ruby's casecmp: ASCII letters compared without case, everything else by its bytes. */
function casecmp(a: string, b: string): number {
  const fold = (text: string) => Buffer.from(text.replace(/[A-Z]/g, (letter) => letter.toLowerCase()));
  return Buffer.compare(fold(a), fold(b));
}

function sorted(contributors: ContributorView[], orderBy: ContributorOrder, sort: SortDirection): ContributorView[] {
  const compare = (a: ContributorView, b: ContributorView) => (orderBy === "commits" ? a.commits - b.commits : casecmp(a[orderBy], b[orderBy]));
  return contributors.sort((a, b) => (sort === "desc" ? compare(b, a) : compare(a, b)));
}
