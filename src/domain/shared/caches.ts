// What a server keeps between requests: rows that every request needs and that rarely change
// (the actor behind a token, users, projects and namespaces, the caller's membership levels, the
// approval configuration of projects and merge requests).
// Each cache names the tables its values are read from; before a cache answers, the tables that
// changed anywhere (this process or another one on the same database, see db/table-versions.ts)
// are looked up and the caches built on them are emptied. So a revoked token, a removed member or
// a changed visibility takes effect on the next request, not after a TTL.
import { AsyncLocalStorage } from "node:async_hooks";
import { LRUCache } from "lru-cache";
import { EVERY_TABLE, type TableVersions } from "../../db/table-versions.js";
import type { Label, Milestone, Namespace, Project, User, WebHook } from "../../generated/prisma/client.js";
import type { LoadedRules } from "../merge-requests/approvals/rules.js";
import type { ApprovalSettings } from "../merge-requests/approvals/settings.js";
import type { ProtectedBranchWithLevels } from "../repository/protection-rules.js";
import type { TokenWithUser } from "../auth/token-store.js";

export interface CacheOptions {
  /** the tables the cached values are read from */
  tables: readonly string[];
  max: number;
}

/**
 * A cache whose values are dropped when one of its tables changes. A value loaded while its
 * tables changed is returned but not kept (the load may have read the old rows).
 */
export class TableCache<K extends {}, V extends {}> {
  readonly #entries: LRUCache<K, V>;
  /** loads in flight, so that concurrent callers share one query */
  readonly #loading = new Map<K, Promise<V | null>>();
  #generation = 0;

  constructor(
    readonly tables: readonly string[],
    max: number,
    /** drops what this process's own writes made stale */
    private readonly refresh: () => void,
    /** told of every value the cache answers with */
    private readonly answered: (tables: readonly string[]) => void = () => undefined,
  ) {
    this.#entries = new LRUCache<K, V>({ max });
  }

  get(key: K): V | undefined {
    this.refresh();
    const value = this.#entries.get(key);
    if (value !== undefined) this.answered(this.tables);
    return value;
  }

  /** The cached value, or `load()`'s, kept for `ttlMs` when given (values that expire by time). */
  load(key: K, load: () => Promise<{ value: V; ttlMs?: number } | null>): Promise<V | null> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#loadAndKeep(key, load).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  /**
   * `load()` through a transaction: never shares another caller's load in flight (it may run on a
   * connection waiting for this transaction's locks, or, on PostgreSQL, for a connection this
   * transaction holds), and is not shared.
   */
  loadInTransaction(key: K, load: () => Promise<{ value: V; ttlMs?: number } | null>): Promise<V | null> {
    const cached = this.get(key);
    return cached !== undefined ? Promise.resolve(cached) : this.#loadAndKeep(key, load);
  }

  async #loadAndKeep(key: K, load: () => Promise<{ value: V; ttlMs?: number } | null>): Promise<V | null> {
    const stamp = this.stamp();
    const loaded = await load();
    if (loaded) this.keep(key, loaded.value, stamp, loaded.ttlMs);
    return loaded?.value ?? null;
  }

  /** Take before reading rows to `keep` them: the cache generation they are read in. */
  stamp(): number {
    this.refresh();
    return this.#generation;
  }

  /** Keeps a value read since `stamp`, unless its tables changed meanwhile. */
  keep(key: K, value: V, stamp: number, ttlMs?: number): void {
    this.refresh();
    if (stamp !== this.#generation || ttlMs === 0) return;
    this.#entries.set(key, Object.freeze(value), ttlMs ? { ttl: ttlMs } : undefined);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

function settled<T>(running: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return running.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** A cached value that stops being true at a time of the application's clock (a membership's expiry). */
export interface Expiring {
  /** ms since the epoch on the application's clock; null: never */
  validUntil: number | null;
}

/** The cached value unless it has expired by `nowMs`, else `load()`'s (then kept). */
export async function loadUnexpired<K extends {}, V extends Expiring>(
  cache: TableCache<K, V>, key: K, nowMs: number, load: () => Promise<V>,
): Promise<V> {
  const cached = cache.get(key);
  if (cached && (cached.validUntil === null || cached.validUntil > nowMs)) return cached;
  if (cached) cache.delete(key);
  return (await cache.load(key, async () => ({ value: await load() })))!;
}

export interface CacheRegistry {
  create<K extends {}, V extends {}>(options: CacheOptions): TableCache<K, V>;
  /**
   * Looks for changes made by other processes (each access only looks for this process's own):
   * at the start of every request and worker round, so that what they see is never older than
   * the moment they started.
   */
  refresh(): Promise<void>;
  /**
   * `refresh` for a request that only reads: `read` starts at once, with the caches as they are,
   * while the look at other processes' writes is on its way (on PostgreSQL a round trip, which
   * then overlaps the request's first statements). If that look finds a table changed that a
   * cache answered `read` from, `read`'s outcome is thrown away and it runs again on the
   * refreshed caches. So `read` may run twice: it must not write anything that matters.
   */
  readSpeculatively<T>(read: () => Promise<T>): Promise<T>;
  /** Empties every cache (tests that change rows behind the application's back). */
  clearAll(): void;
}

/** `staleRead`: told each time a speculative read runs again. */
export function createCacheRegistry(versions: TableVersions, staleRead: () => void = () => undefined): CacheRegistry {
  const caches: TableCache<any, any>[] = [];
  /** the tables the caches answered the running speculative read from */
  const answeredFrom = new AsyncLocalStorage<Set<string>>();
  const answered = (tables: readonly string[]) => {
    const noted = answeredFrom.getStore();
    if (noted) for (const table of tables) noted.add(table);
  };
  const refresh = (otherProcesses: boolean) => {
    const changed = versions.changedTables(otherProcesses);
    if (changed === EVERY_TABLE) {
      for (const cache of caches) cache.clear();
      return;
    }
    if (changed.size === 0) return;
    for (const cache of caches) if (cache.tables.some((table) => changed.has(table))) cache.clear();
  };
  const refreshLocal = () => refresh(false);
  return {
    async refresh() {
      await versions.poll?.();
      refresh(true);
    },
    async readSpeculatively(read) {
      if (!versions.poll || !versions.readsDone || !versions.changedSince) {
        await this.refresh();
        return read();
      }
      const mark = versions.readsDone();
      const looked = this.refresh();
      const noted = new Set<string>();
      const outcome = await answeredFrom.run(noted, () => settled(read()));
      await looked;
      if (versions.changedSince(mark, noted)) {
        staleRead();
        return read();
      }
      if ("error" in outcome) throw outcome.error;
      return outcome.value;
    },
    create(options) {
      const cache = new TableCache<any, any>(options.tables, options.max, refreshLocal, answered);
      caches.push(cache);
      return cache;
    },
    clearAll() {
      for (const cache of caches) cache.clear();
    },
  };
}

/** The caches every server process keeps (see each for the tables it depends on). */
export interface Caches {
  registry: CacheRegistry;
  /** token digest -> the token with its user (the actor of most requests) */
  tokens: TableCache<string, TokenWithUser>;
  /** users by id (authors, assignees, award users of list entities) */
  users: TableCache<number, User>;
  /** projects by id, with their namespace */
  projects: TableCache<number, ProjectWithNamespace>;
  /** lower-case full path of a project -> its id (current paths only, not redirects) */
  projectIds: TableCache<string, number>;
  /** "<user id>/p<project id>" or "<user id>/g<namespace id>" -> the user's membership levels there */
  memberships: TableCache<string, MembershipLevels>;
  /** project id -> its merge request approval settings */
  approvalSettings: TableCache<number, ApprovalSettings>;
  /** "<kind>/<container id>" -> the approval rules of a group, project or merge request, loaded */
  approvalRules: TableCache<string, LoadedRules>;
  /** project id -> its protected branches with their access levels */
  protectedBranches: TableCache<number, readonly ProtectedBranchWithLevels[]>;
  /** project id -> the groups it is shared with (its entity's shared_with_groups) */
  projectShares: TableCache<number, readonly GroupShare[]>;
  /** an issue list's filter (JSON) -> how many issues match, counted up to the pagination cap */
  issueCounts: TableCache<string, number>;
  /** labels by id (issue and merge request entities show their labels' titles) */
  labels: TableCache<number, Label>;
  /** project id -> whether its repository is empty and where its README is */
  repositories: TableCache<number, RepositoryFacts>;
  /** "<event column>:<project id>:<group ids>" -> the hooks of that project and those groups that subscribe to the event */
  webHooks: TableCache<string, readonly WebHook[]>;
  /** milestones by id (the milestone of list entities' issues and merge requests) */
  milestones: TableCache<number, Milestone>;
}

export type ProjectWithNamespace = Project & { namespace: Namespace };

/** What a project's entity tells of its repository (empty_repo, readme_url). */
export interface RepositoryFacts {
  empty: boolean;
  /** the README at the root of the default branch, if any */
  readmePath: string | null;
}

/** A user's membership levels, until the first counted membership expires. */
export interface MembershipLevels extends Expiring {
  /** level of the user's own project membership (0: none; always 0 for a namespace) */
  direct: number;
  /** highest level through the namespace (groups up the tree, or owning the personal namespace) */
  inherited: number;
  /** highest level through a group the project or one of its groups is shared with */
  shared: number;
}

/** A group a project or a group is shared with, as the entities show it. */
export interface GroupShare {
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccess: number;
  expiresAt: Date | null;
}

/** Where a user's levels come from: memberships, and the shares that extend them to other groups and projects. */
const MEMBERSHIP_TABLES = ["ProjectMember", "GroupMember", "ProjectGroupLink", "GroupGroupLink"];

const APPROVAL_RULE_TABLES = ["ApprovalRule", "ApprovalRuleUser", "ApprovalRuleGroup", "ApprovalRuleProtectedBranch"];
const PROTECTION_TABLES = ["ProtectedBranch", "ProtectedBranchAccessLevel"];

export function createCaches(versions: TableVersions, staleRead?: () => void): Caches {
  const registry = createCacheRegistry(versions, staleRead);
  return {
    registry,
    tokens: registry.create({ tables: ["AccessToken", "User"], max: 10_000 }),
    users: registry.create({ tables: ["User"], max: 10_000 }),
    projects: registry.create({ tables: ["Project", "Namespace"], max: 5_000 }),
    projectIds: registry.create({ tables: ["Project", "Namespace"], max: 5_000 }),
    memberships: registry.create({ tables: [...MEMBERSHIP_TABLES, "Project", "Namespace"], max: 20_000 }),
    approvalSettings: registry.create({ tables: ["ProjectApprovalSetting"], max: 5_000 }),
    approvalRules: registry.create({
      tables: [...APPROVAL_RULE_TABLES, ...PROTECTION_TABLES, "User", "Namespace", "GroupMember"],
      max: 10_000,
    }),
    protectedBranches: registry.create({ tables: PROTECTION_TABLES, max: 5_000 }),
    milestones: registry.create({ tables: ["Milestone"], max: 10_000 }),
    // the filters of GET /issues also name projects and memberships
    projectShares: registry.create({ tables: ["ProjectGroupLink", "Namespace"], max: 5_000 }),
    issueCounts: registry.create({ tables: ["Issue", "IssueAssignee", "IssueLabel", "Label", "Project", "Namespace", ...MEMBERSHIP_TABLES], max: 10_000 }),
    labels: registry.create({ tables: ["Label"], max: 20_000 }),
    // a branch moving changes them; so does the default branch (a Project column)
    repositories: registry.create({ tables: ["Branch", "Project"], max: 5_000 }),
    webHooks: registry.create({ tables: ["WebHook"], max: 5_000 }),
  };
}
