// What a project's entity tells of its repository: `empty_repo` (no branch yet: a project created
// without initialize_with_readme, until its first push) and `readme_url` (GitLab's
// Repository#readme_path at the root of the default branch). Kept between requests
// (caches.repositories, emptied when branch rows change) and loaded for a page of projects in
// one query and one tree read per project (cat-file).
import type { Project } from "../../generated/prisma/client.js";
import type { Caches, RepositoryFacts } from "../shared/caches.js";
import type { Services } from "../shared/context.js";
import { repositoryOf } from "./git.js";
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";

/** A README at the root: "README", "readme.md", "Readme.rst"... (Gitlab::FileDetector's readme). */
const README = /^readme(\.[^/.]+)?$/i;
/** Markups GitLab renders: preferred over a plain-text README when both exist. */
const MARKUP = /\.(md|markdown|mdown|mkd|mkdn|rdoc|adoc|asciidoc|asc|rst|org|textile|creole|mediawiki|wiki|pod)$/i;

export function readmeOf(treePaths: string[]): string | null {
  const readmes = treePaths.filter((path) => README.test(path)).sort();
  return readmes.find((path) => MARKUP.test(path)) ?? readmes[0] ?? null;
}

type ProjectRef = Pick<Project, "id" | "defaultBranch">;

export async function repositoryFactsOf(services: Pick<Services, "db" | "git">, cache: Caches["repositories"], projects: readonly ProjectRef[]): Promise<RepositoryFacts[]> {
  const known = new Map(projects.map((p) => [p.id, cache.get(p.id)]));
  const missing = projects.filter((p) => known.get(p.id) === undefined);
  if (missing.length) {
    const stamp = cache.stamp();
    for (const [id, facts] of await loadFacts(services, missing)) {
      known.set(id, facts);
      cache.keep(id, facts, stamp);
    }
  }
  // what was loaded is the answer even when a write meanwhile kept it out of the cache
  return projects.map((p) => known.get(p.id)!);
}

async function loadFacts(services: Pick<Services, "db" | "git">, projects: readonly ProjectRef[]): Promise<Map<number, RepositoryFacts>> {
  const branches = await services.db.branch.findMany({
    where: { projectId: { in: projects.map((p) => p.id) } },
    select: { projectId: true, name: true, headSha: true },
  });
  const facts = await Promise.all(projects.map(async (p): Promise<[number, RepositoryFacts]> => {
    const head = branches.find((b) => b.projectId === p.id && b.name === p.defaultBranch)?.headSha;
    return [p.id, { empty: !branches.some((b) => b.projectId === p.id), readmePath: head ? await readmeAt(services, p.id, head) : null }];
  }));
  return new Map(facts);
}

async function readmeAt(services: Pick<Services, "git">, projectId: number, commitSha: string): Promise<string | null> {
  const repo = repositoryOf(services, projectId);
  const commit = await repo.commit(commitSha);
  const entries = commit ? await repo.tree(commit.tree) : null;
  return readmeOf((entries ?? []).filter((e) => e.type === "blob").map((e) => e.name));
}

/** empty_repo and readme_url of a project (by id; its default branch is read from the row given). */
export const repositoryFactsLoader: LoaderFactory<DataLoader<Pick<Project, "id" | "defaultBranch">, RepositoryFacts, number>> = (services) =>
  new DataLoader((projects) => repositoryFactsOf(services, services.caches.repositories, projects), { cacheKeyFn: (p) => p.id });
