// Long-running `git cat-file --batch-command -z` processes, one per repository in use, as Gitaly
// keeps them (internal/git/catfile/cache.go): a lookup costs a round trip on a pipe instead of a
// process start. A process that stays idle is closed; past the cap, the least recently used goes.
import type { ChildProcess } from "node:child_process";
import { spawnGit } from "./command.js";
import type { ObjectType } from "./objects.js";

export interface ObjectInfo {
  sha: string;
  type: ObjectType;
  size: number;
}

export interface ObjectData extends ObjectInfo {
  data: Buffer;
}

interface Pending {
  withContents: boolean;
  resolve(value: ObjectData | ObjectInfo | null): void;
  reject(error: Error): void;
}

/** A name git cannot be asked for on this pipe (NUL separates requests). */
export class UnreadableNameError extends Error {}

class CatFileProcess {
  private readonly child: ChildProcess;
  private readonly pending: Pending[] = [];
  /** what git printed and was not taken yet */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** the header of the object whose contents are being read */
  private current: ObjectInfo | null = null;
  private closed = false;
  lastUsed = Date.now();

  constructor(readonly gitDir: string, private readonly onExit: (process: CatFileProcess) => void) {
    this.child = spawnGit([`--git-dir=${gitDir}`, "cat-file", "--batch-command", "-z"]);
    this.child.stdout!.on("data", (chunk: Buffer) => this.receive(chunk));
    this.child.stderr!.resume();
    this.child.stdin!.on("error", () => this.fail(new Error("git cat-file stopped")));
    this.child.on("error", (error) => this.fail(error));
    this.child.on("close", () => this.fail(new Error(`git cat-file exited for ${gitDir}`)));
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as unknown as { unref?(): void }).unref?.();
  }

  get busy(): boolean {
    return this.pending.length > 0;
  }

  request(name: string, withContents: boolean): Promise<ObjectData | ObjectInfo | null> {
    if (name.includes("\0") || name === "") return Promise.reject(new UnreadableNameError(name));
    if (this.closed) return Promise.reject(new Error("git cat-file is closed"));
    this.lastUsed = Date.now();
    return new Promise((resolve, reject) => {
      this.pending.push({ withContents, resolve, reject });
      this.child.stdin!.write(`${withContents ? "contents" : "info"} ${name}\0`);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.child.stdin!.end();
    setTimeout(() => this.child.kill("SIGKILL"), 5_000).unref();
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.step());
  }

  /** The first `length` bytes received (joined once, however many chunks they came in). */
  private take(length: number): Buffer {
    const joined = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const rest = joined.subarray(length);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return joined.subarray(0, length);
  }

  /** Takes one answer (or a header) off what was received; false when more bytes are needed. */
  private step(): boolean {
    if (this.current) {
      if (this.buffered < this.current.size + 1) return false;
      const data = Buffer.from(this.take(this.current.size + 1).subarray(0, this.current.size));
      const info = this.current;
      this.current = null;
      this.pending.shift()?.resolve({ ...info, data });
      return true;
    }
    const newline = this.headerEnd();
    if (newline === -1) return false;
    const header = this.take(newline + 1).toString("utf8", 0, newline);
    const match = /^([0-9a-f]{40}) (blob|tree|commit|tag) (\d+)$/.exec(header);
    if (!match) {
      this.pending.shift()?.resolve(null); // "<name> missing" or "<name> ambiguous"
      return true;
    }
    const info: ObjectInfo = { sha: match[1]!, type: match[2] as ObjectType, size: Number(match[3]) };
    if (this.pending[0]?.withContents) this.current = info;
    else this.pending.shift()?.resolve(info);
    return true;
  }

  /** Where the header line ends in what was received (-1: not yet). */
  private headerEnd(): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const at = chunk.indexOf(0x0a);
      if (at !== -1) return offset + at;
      offset += chunk.length;
    }
    return -1;
  }

  private fail(error: Error): void {
    if (!this.closed) this.closed = true;
    for (const waiting of this.pending.splice(0)) waiting.reject(error);
    this.onExit(this);
  }
}

export interface CatFilePoolOptions {
  /** processes kept at most (the least recently used idle one is closed first) */
  max: number;
  /** an idle process is closed after this long */
  idleMs: number;
}

export class CatFilePool {
  private readonly processes = new Map<string, CatFileProcess>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: CatFilePoolOptions = { max: 64, idleMs: 60_000 }) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(options.idleMs, 10_000));
    this.sweeper.unref();
  }

  /** The object's header and contents; null when the repository has no such object. */
  async contents(gitDir: string, name: string): Promise<ObjectData | null> {
    return (await this.processFor(gitDir).request(name, true)) as ObjectData | null;
  }

  async info(gitDir: string, name: string): Promise<ObjectInfo | null> {
    return this.processFor(gitDir).request(name, false);
  }

  /** Closes the repository's process (its directory is going away). */
  forget(gitDir: string): void {
    this.processes.get(gitDir)?.close();
    this.processes.delete(gitDir);
  }

  /** Closes the processes of the repositories under a folder. */
  forgetUnder(folder: string): void {
    for (const gitDir of [...this.processes.keys()]) if (gitDir.startsWith(folder)) this.forget(gitDir);
  }

  closeAll(): void {
    clearInterval(this.sweeper);
    for (const process of this.processes.values()) process.close();
    this.processes.clear();
  }

  get size(): number {
    return this.processes.size;
  }

  private processFor(gitDir: string): CatFileProcess {
    let process = this.processes.get(gitDir);
    if (!process) {
      this.makeRoom();
      process = new CatFileProcess(gitDir, (gone) => {
        if (this.processes.get(gitDir) === gone) this.processes.delete(gitDir);
      });
      this.processes.set(gitDir, process);
    }
    return process;
  }

  private makeRoom(): void {
    if (this.processes.size < this.options.max) return;
    const idle = [...this.processes.values()].filter((p) => !p.busy).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (idle) this.forget(idle.gitDir);
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const process of [...this.processes.values()]) {
      if (!process.busy && now - process.lastUsed > this.options.idleMs) this.forget(process.gitDir);
    }
  }
}
