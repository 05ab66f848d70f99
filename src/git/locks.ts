// One writer per repository at a time, across every process that reaches the repositories:
// within a process a queue per repository, across processes a PostgreSQL advisory lock (servers
// on PostgreSQL may sit on several machines sharing REPOSITORIES_DIR) or, on SQLite (one machine),
// a lock directory beside the repository (proper-lockfile: atomic mkdir, stale after a crash).
import { mkdirSync } from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";
import pg from "pg";

export type Release = () => Promise<void>;

export interface RepositoryLocks {
  /** Waits for the repository's lock; the release function must be called exactly once. */
  acquire(projectId: number): Promise<Release>;
  close(): Promise<void>;
}

export async function withRepositoryLock<T>(locks: RepositoryLocks, projectId: number, work: () => Promise<T>): Promise<T> {
  const release = await locks.acquire(projectId);
  try {
    return await work();
  } finally {
    await release();
  }
}

/** The lock as other processes see it. */
interface CrossProcessLock {
  acquire(projectId: number): Promise<Release>;
  close(): Promise<void>;
}

/** Queues this process's takers of a repository before they ask the other processes. */
class QueuedLocks implements RepositoryLocks {
  private readonly tails = new Map<number, Promise<void>>();

  constructor(private readonly shared: CrossProcessLock) {}

  async acquire(projectId: number): Promise<Release> {
    const before = this.tails.get(projectId) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    this.tails.set(projectId, tail);
    await before;
    let releaseShared: Release;
    try {
      releaseShared = await this.shared.acquire(projectId);
    } catch (error) {
      this.finish(projectId, tail, done);
      throw error;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await releaseShared();
      } finally {
        this.finish(projectId, tail, done);
      }
    };
  }

  private finish(projectId: number, tail: Promise<void>, done: () => void): void {
    if (this.tails.get(projectId) === tail) this.tails.delete(projectId);
    done();
  }

  close(): Promise<void> {
    return this.shared.close();
  }
}

/** pg_advisory_lock's first key: this lock's own space (the second is the project id). */
const ADVISORY_LOCK_SPACE = 4_170_028;

/** Session advisory locks, each held on a connection of a small pool of its own. */
function postgresqlLock(databaseUrl: string): CrossProcessLock {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, idleTimeoutMillis: 30_000 });
  pool.on("error", () => {}); // an idle connection dropped by the server; the next connect makes a new one
  return {
    async acquire(projectId) {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1, $2)", [ADVISORY_LOCK_SPACE, projectId]);
      } catch (error) {
        client.release(true);
        throw error;
      }
      return async () => {
        try {
          await client.query("SELECT pg_advisory_unlock($1, $2)", [ADVISORY_LOCK_SPACE, projectId]);
          client.release();
        } catch {
          client.release(true); // closing the connection releases its locks
        }
      };
    },
    close: () => pool.end(),
  };
}

/** A lock directory per repository under `<root>/.locks`, renewed while held, taken over when stale. */
function fileLock(root: string): CrossProcessLock {
  const folder = path.join(root, ".locks");
  return {
    async acquire(projectId) {
      mkdirSync(folder, { recursive: true });
      const release = await lockfile.lock(path.join(folder, String(projectId)), {
        realpath: false,
        stale: 10_000,
        update: 2_000,
        retries: { retries: 2_000, minTimeout: 5, maxTimeout: 50, factor: 1.2 },
      });
      return release;
    },
    close: async () => {},
  };
}

export function createRepositoryLocks(options: { databaseUrl: string; postgresql: boolean; repositoriesDir: string }): RepositoryLocks {
  return new QueuedLocks(options.postgresql ? postgresqlLock(options.databaseUrl) : fileLock(options.repositoriesDir));
}
