// What a project's entity tells of its repository: `empty_repo` (no branch yet: a project created
// without initialize_with_readme, until its first push) and `readme_url` (GitLab's
// Repository#readme_path at the root of the default branch). Kept between requests
// (caches.repositories) and loaded for a page of projects in two queries.
import type { Project } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import type { Caches, RepositoryFacts } from "../shared/caches.js";
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

export async function repositoryFactsOf(db: Db, cache: Caches["repositories"], projects: readonly ProjectRef[]): Promise<RepositoryFacts[]> {
  const missing = projects.filter((p) => cache.get(p.id) === undefined);
  if (missing.length) {
    const stamp = cache.stamp();
    for (const [id, facts] of await loadFacts(db, missing)) cache.keep(id, facts, stamp);
  }
  return projects.map((p) => cache.get(p.id) ?? { empty: true, readmePath: null });
}

async function loadFacts(db: Db, projects: readonly ProjectRef[]): Promise<Map<number, RepositoryFacts>> {
  const branches = await db.branch.findMany({
    where: { projectId: { in: projects.map((p) => p.id) } },
    select: { projectId: true, name: true, headSha: true },
  });
  const heads = projects.flatMap((p) => {
    const branch = branches.find((b) => b.projectId === p.id && b.name === p.defaultBranch);
    return branch ? [{ projectId: p.id, sha: branch.headSha }] : [];
  });
  const commits = heads.length
    ? await db.commit.findMany({ where: { OR: heads }, select: { projectId: true, treePaths: true } })
    : [];
  return new Map(projects.map((p) => {
    const tree = commits.find((c) => c.projectId === p.id)?.treePaths;
    const facts = { empty: !branches.some((b) => b.projectId === p.id), readmePath: tree ? readmeOf(JSON.parse(tree) as string[]) : null };
    return [p.id, facts];
  }));
}

/** empty_repo and readme_url of a project (by id; its default branch is read from the row given). */
export const repositoryFactsLoader: LoaderFactory<DataLoader<Pick<Project, "id" | "defaultBranch">, RepositoryFacts, number>> = (services) =>
  new DataLoader((projects) => repositoryFactsOf(services.db, services.caches.repositories, projects), { cacheKeyFn: (p) => p.id });
