// Where repositories live: one bare repository per project under REPOSITORIES_DIR, at a path
// derived from the project id alone (GitLab's hashed storage: @hashed/ab/cd/<sha256 of id>.git),
// so renaming or moving a project never moves files. The store also owns what reading needs
// between requests: the cat-file processes and the cache of immutable objects.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { CatFilePool, type CatFilePoolOptions } from "./cat-file.js";
import type { ObjectType } from "./objects.js";
import { GitRepository } from "./repository.js";

export interface CachedObject {
  type: ObjectType;
  data: Buffer;
}

export interface GitStoreOptions {
  catFile?: CatFilePoolOptions;
  /** bytes of objects kept in memory */
  cacheBytes?: number;
}

/** What `git init --bare` writes into a repository's config. */
const BARE_CONFIG = `[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = true
`;

/**
 * Settings every repository gets (Gitaly passes the same on its commands): pushed objects are
 * checked (but for the harmless flaws old histories carry, as Gitaly lets through), push options
 * reach the hooks, clients may fetch partial clones and any commit by id. A push is kept as the pack it came as (unpackLimit 1), never exploded into loose objects, which
 * every later clone would have to compress again (hundreds of MB of memory for a big repository);
 * the packs are gathered by `gc --auto` after pushes (receive.autogc).
 */
const REPOSITORY_CONFIG = `[receive]
\tfsckObjects = true
\tadvertisePushOptions = true
\tunpackLimit = 1
[receive "fsck"]
\tbadTimezone = ignore
\tmissingSpaceBeforeDate = ignore
\tzeroPaddedFilemode = ignore
[uploadpack]
\tallowFilter = true
\tallowAnySHA1InWant = true
`;

/**
 * One cat-file pool and one object cache per process, whatever the number of stores (tests run
 * many): both are keyed by repository path, so stores on other folders never share an entry.
 */
let shared: { catFile: CatFilePool; objects: LRUCache<string, CachedObject>; facts: LRUCache<string, { value: unknown }> } | undefined;

function sharedReaders(options: GitStoreOptions) {
  shared ??= {
    catFile: new CatFilePool(options.catFile),
    objects: new LRUCache<string, CachedObject>({ maxSize: options.cacheBytes ?? 32 * 1024 * 1024, sizeCalculation: (object) => object.data.length + 64 }),
    facts: new LRUCache<string, { value: unknown }>({ max: 50_000 }),
  };
  return shared;
}

export class GitStore {
  readonly catFile: CatFilePool;
  readonly objects: LRUCache<string, CachedObject>;
  private readonly facts: LRUCache<string, { value: unknown }>;

  constructor(readonly root: string, options: GitStoreOptions = {}) {
    ({ catFile: this.catFile, objects: this.objects, facts: this.facts } = sharedReaders(options));
  }

  /**
   * What git answered about immutable objects (the last commit of a path in a commit's history, a
   * blob's digest), kept by a key naming the repository and the objects' ids.
   */
  async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const known = this.facts.get(key);
    if (known) return known.value as T;
    const value = await compute();
    this.facts.set(key, { value });
    return value;
  }

  /** `@hashed/ab/cd/<sha256>.git` under the root. */
  pathOf(projectId: number): string {
    const hash = createHash("sha256").update(String(projectId)).digest("hex");
    return path.join(this.root, "@hashed", hash.slice(0, 2), hash.slice(2, 4), `${hash}.git`);
  }

  exists(projectId: number): boolean {
    return existsSync(path.join(this.pathOf(projectId), "HEAD"));
  }

  open(projectId: number): GitRepository {
    return new GitRepository(this.pathOf(projectId), this);
  }

  /**
   * An empty bare repository for the project whose HEAD names its default branch (kept when it
   * exists): the files `git init --bare --template=` writes, written here (a project is created
   * often, a process start costs more than the files), made in a temporary folder and renamed
   * into place whole.
   */
  async create(projectId: number, defaultBranch: string): Promise<GitRepository> {
    const gitDir = this.pathOf(projectId);
    if (this.exists(projectId)) return this.open(projectId);
    await mkdir(path.dirname(gitDir), { recursive: true });
    const temporary = `${gitDir}.${randomBytes(6).toString("hex")}.tmp`;
    for (const folder of ["objects/info", "objects/pack", "refs/heads", "refs/tags"]) await mkdir(path.join(temporary, folder), { recursive: true });
    await writeFile(path.join(temporary, "config"), `${BARE_CONFIG}${REPOSITORY_CONFIG}`);
    await writeFile(path.join(temporary, "HEAD"), `ref: refs/heads/${defaultBranch}\n`);
    try {
      await rename(temporary, gitDir);
    } catch (error) {
      await rm(temporary, { recursive: true, force: true });
      if (!this.exists(projectId)) throw error; // another process made it first otherwise
    }
    return this.open(projectId);
  }

  async remove(projectId: number): Promise<void> {
    const gitDir = this.pathOf(projectId);
    this.catFile.forget(gitDir);
    await rm(gitDir, { recursive: true, force: true });
  }

  /** Closes this store's cat-file processes (the pool stays for other stores). */
  close(): void {
    this.catFile.forgetUnder(this.root);
  }
}
