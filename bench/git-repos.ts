// The repositories `npm run bench:git` pushes and clones, written by `git fast-import` into bare
// repositories: a history of source-like text files (deterministic, so every run measures the same
// bytes) and a large repository of incompressible random files.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { Writable } from "node:stream";

/** git without the user's or the system's configuration, never prompting. */
export const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
  LC_ALL: "C",
};

/** Runs git to its end; its standard output, or an error with its standard error. */
export function git(args: string[], options: { cwd?: string; input?: (stdin: Writable) => Promise<void> } = {}): Promise<string> {
  const child = spawn("git", args, { cwd: options.cwd, env: GIT_ENV, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.on("error", () => undefined); // git stopped reading: its exit code and standard error tell why
  const input = options.input ?? (async () => undefined);
  const fed = input(child.stdin).then(() => (child.stdin.end(), null), (error: Error) => error);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`git ${args.join(" ")} exited ${code}: ${stderr.trim()}`));
      void fed.then((error) => (error ? reject(error) : resolve(stdout)));
    });
  });
}

async function write(stream: Writable, data: string | Buffer): Promise<void> {
  if (stream.destroyed) throw new Error("git stopped reading its input");
  if (stream.write(data)) return;
  const waiting = new AbortController(); // the listener of the event that did not come goes too
  await Promise.race([once(stream, "drain", { signal: waiting.signal }), once(stream, "close", { signal: waiting.signal })]).finally(() => waiting.abort());
}

/** mulberry32: a small seeded generator, the same history on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["value", "result", "request", "response", "user", "project", "issue", "count", "index", "options", "config", "error",
  "buffer", "entry", "items", "query", "path", "token", "state", "event", "handler", "client", "stream", "record", "limit", "offset"];
const KEYWORDS = ["const", "let", "return", "if", "await", "for", "export function", "throw new Error", "// TODO:", "case"];

/** A line of something that reads like TypeScript (compresses and deltas like source code). */
function sourceLine(next: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const name = () => pick(WORDS) + pick(WORDS).replace(/^./, (c) => c.toUpperCase());
  const indent = "  ".repeat(Math.floor(next() * 4));
  return `${indent}${pick(KEYWORDS)} ${name()} = ${name()}(${name()}, ${Math.floor(next() * 1000)});`;
}

interface SourceFile {
  path: string;
  lines: string[];
  /** the commit (1-based) that last changed it */
  changed: number;
}

/** A file of typical size: median about 4 KiB, a few up to ~60 KiB. */
function newFile(next: () => number, path: string): SourceFile {
  const gauss = Math.sqrt(-2 * Math.log(next() || 1e-9)) * Math.cos(2 * Math.PI * next());
  const bytes = Math.min(60_000, Math.max(300, 4096 * Math.exp(gauss)));
  const lines: string[] = [];
  for (let size = 0; size < bytes; size += lines[lines.length - 1]!.length + 1) lines.push(sourceLine(next));
  return { path, lines, changed: 0 };
}

/** An edit as a commit makes it: a few lines replaced, some added, one removed. */
function edit(next: () => number, file: SourceFile): void {
  const at = () => Math.floor(next() * file.lines.length);
  for (let i = 0; i < 3; i++) file.lines[at()] = sourceLine(next);
  file.lines.splice(at(), 0, ...Array.from({ length: 1 + Math.floor(next() * 6) }, () => sourceLine(next)));
  if (file.lines.length > 10) file.lines.splice(at(), 1);
}

const DIRECTORIES = Array.from({ length: 24 }, (_, i) => `src/${WORDS[i]}${i % 3 === 0 ? "/internal" : ""}`);

function commitHeader(mark: number, time: number, message: string): string {
  const author = ["Ada <ada@example.com>", "Linus <linus@example.com>", "Grace <grace@example.com>"][mark % 3];
  const data = Buffer.byteLength(message);
  return `commit refs/heads/main\nmark :${mark}\nauthor ${author} ${time} +0000\ncommitter ${author} ${time} +0000\ndata ${data}\n${message}\n` +
    (mark > 1 ? `from :${mark - 1}\n` : "");
}

async function writeModify(stdin: Writable, path: string, content: string | Buffer): Promise<void> {
  await write(stdin, `M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n`);
  await write(stdin, content);
  await write(stdin, "\n");
}

export interface HistoryRepository {
  gitDir: string;
  /** a file of about the median size among the quarter changed longest ago (finding its last commit walks most of the history) */
  filePath: string;
  fileBytes: number;
  /** the commit that last changed it */
  fileChanged: number;
  /** the directory with the most entries */
  directory: string;
  directoryEntries: number;
  packBytes: number;
}

/** `commits` commits over a few hundred files (150 at first, up to 320), 1-3 files edited in each. */
export async function createHistory(gitDir: string, commits: number): Promise<HistoryRepository> {
  const next = random(20240611);
  const files: SourceFile[] = [];
  const add = () => files.push(newFile(next, `${DIRECTORIES[files.length % DIRECTORIES.length]}/${WORDS[Math.floor(next() * WORDS.length)]}-${files.length}.ts`));
  await git(["init", "--bare", "--quiet", "--initial-branch=main", gitDir]);
  await git(["--git-dir", gitDir, "fast-import", "--quiet"], {
    input: async (stdin) => {
      for (let mark = 1; mark <= commits; mark++) {
        const touched = new Set<SourceFile>();
        if (mark === 1) for (let i = 0; i < 150; i++) touched.add(files[add() - 1]!);
        else if (files.length < 320 && next() < 0.17) touched.add(files[add() - 1]!);
        const edits = mark === 1 ? 0 : 1 + Math.floor(next() * 3);
        for (let i = 0; i < edits; i++) {
          // edits favour a few busy files, as in real histories
          const file = files[Math.floor(files.length * next() ** 2)]!;
          edit(next, file);
          touched.add(file);
        }
        await write(stdin, commitHeader(mark, 1_600_000_000 + mark * 3600, `Change ${mark}: ${[...touched].map((f) => f.path).join(", ")}`));
        for (const file of touched) {
          file.changed = mark;
          await writeModify(stdin, file.path, file.lines.join("\n") + "\n");
        }
        await write(stdin, "\n");
      }
    },
  });
  await git(["--git-dir", gitDir, "repack", "-a", "-d", "-f", "-q"]);
  return { gitDir, ...pickTargets(files), packBytes: await packBytes(gitDir) };
}

function pickTargets(files: SourceFile[]) {
  const sized = files.map((f) => ({ path: f.path, changed: f.changed, bytes: Buffer.byteLength(f.lines.join("\n") + "\n") }));
  const median = [...sized].sort((a, b) => a.bytes - b.bytes)[Math.floor(sized.length / 2)]!.bytes;
  const old = [...sized].sort((a, b) => a.changed - b.changed).slice(0, Math.ceil(sized.length / 4));
  const file = old.sort((a, b) => Math.abs(a.bytes - median) - Math.abs(b.bytes - median))[0]!;
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.path.slice(0, f.path.lastIndexOf("/")), (counts.get(f.path.slice(0, f.path.lastIndexOf("/"))) ?? 0) + 1);
  const [directory, directoryEntries] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return { filePath: file.path, fileBytes: file.bytes, fileChanged: file.changed, directory, directoryEntries };
}

export async function packBytes(gitDir: string): Promise<number> {
  const out = await git(["--git-dir", gitDir, "count-objects", "-v"]);
  const kib = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, "m").exec(out)?.[1] ?? 0);
  return (kib("size") + kib("size-pack")) * 1024;
}

/** About `megabytes` MiB of random bytes: files of 5 MiB, 80 % in the first commit, the rest rewrites in later ones. */
export async function createLarge(gitDir: string, megabytes: number): Promise<number> {
  const fileBytes = 5 * 1024 * 1024;
  const total = Math.max(2, Math.round(megabytes / 5));
  const initial = Math.ceil(total * 0.8);
  await git(["init", "--bare", "--quiet", "--initial-branch=main", gitDir]);
  // kept as one pack (fast-import unpacks fewer than 100 objects); random bytes do not deflate anyway
  await git(["--git-dir", gitDir, "-c", "fastimport.unpackLimit=1", "-c", "pack.compression=0", "fast-import", "--quiet", "--big-file-threshold=1m"], {
    input: async (stdin) => {
      await write(stdin, commitHeader(1, 1_600_000_000, "Add the data files"));
      for (let i = 0; i < initial; i++) await writeModify(stdin, `data/blob-${i}.bin`, randomBytes(fileBytes));
      await writeModify(stdin, "README.md", "Random data for the clone benchmark.\n");
      for (let i = initial; i < total; i++) {
        await write(stdin, `\n${commitHeader(2 + i - initial, 1_600_000_000 + i * 3600, `Rewrite blob-${i - initial}`)}`);
        await writeModify(stdin, `data/blob-${i - initial}.bin`, randomBytes(fileBytes));
      }
      await write(stdin, "\n");
    },
  });
  return packBytes(gitDir);
}
