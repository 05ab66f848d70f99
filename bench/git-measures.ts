// The four measures of `npm run bench:git` (see bench/git.ts); each prints its runs and answers
// its SUMMARY line.
import { rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { groupCpuSeconds, median, percentile, runTimed, samplePeaks, sampleMemory, timeGit, type MemorySample } from "./git-sampling.js";
import { createLarge, git, type HistoryRepository } from "./git-repos.js";
import { closedLoop, type Request, type RunResult } from "./load.js";
import type { Measured } from "./processes.js";

export interface Bench {
  dir: string;
  forgeline: Measured;
  baseline: Measured;
  /** GIT_PROJECT_ROOT of the baseline */
  baselineRoot: string;
  history: HistoryRepository;
  /** Forgeline's REST API, as root unless a token is given */
  api: (method: string, route: string, body?: unknown, token?: string) => Promise<any>;
  groupId: number;
  token: string;
}

type Side = "forgeline" | "baseline";
const SIDES: Side[] = ["forgeline", "baseline"];

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An empty public project in the bench group, and its git URL with root's token as the password. */
async function newProject(b: Bench, name: string): Promise<{ id: number; url: string }> {
  const project = await b.api("POST", "/projects", { name, path: name, namespace_id: b.groupId, visibility: "public" });
  const url = new URL(`${b.forgeline.url}/${project.path_with_namespace}.git`);
  url.username = "bench";
  url.password = b.token;
  return { id: project.id, url: url.toString() };
}

/** An empty bare repository behind the baseline, open to pushes. */
async function newBaselineRepository(b: Bench, name: string): Promise<string> {
  const gitDir = path.join(b.baselineRoot, `${name}.git`);
  await git(["init", "--bare", "--quiet", "--initial-branch=main", gitDir]);
  await git(["--git-dir", gitDir, "config", "http.receivepack", "true"]);
  return `${b.baseline.url}/${name}.git`;
}

const newRepository = async (b: Bench, side: Side, name: string) =>
  side === "forgeline" ? (await newProject(b, name)).url : newBaselineRepository(b, name);

interface Timed {
  ms: number;
  /** the server's CPU (its git processes included) */
  cpuMs: number;
}

async function timed(server: Measured, args: string[]): Promise<Timed> {
  const cpu = groupCpuSeconds(server.pid);
  const { ms, stderr } = await runTimed(args);
  // quiet git prints only what the server's hooks said (an error)
  if (stderr.trim()) console.log(`  ${server.name}: git ${args.find((arg) => arg === "push" || arg === "clone")} printed: ${stderr.trim()}`);
  await sleep(100); // the server's git processes end (and are reaped) just after the client's
  return { ms, cpuMs: (groupCpuSeconds(server.pid) - cpu) * 1000 };
}

/** Forgeline, baseline, baseline, Forgeline, ...: `pairs` runs of each. */
async function alternate(pairs: number, run: (side: Side) => Promise<Timed>): Promise<Record<Side, Timed[]>> {
  const runs: Record<Side, Timed[]> = { forgeline: [], baseline: [] };
  for (let pair = 0; pair < pairs; pair++) {
    for (const side of pair % 2 === 0 ? SIDES : [...SIDES].reverse()) runs[side].push(await run(side));
  }
  return runs;
}

function report(title: string, runs: Record<Side, Timed[]>): { forgeline: number; baseline: number; ratio: number } {
  const ms = (side: Side) => median(runs[side].map((r) => r.ms));
  console.log(title);
  for (const side of SIDES) {
    console.log(`  ${side.padEnd(9)} median ${fixed(ms(side))} ms, server cpu ${fixed(median(runs[side].map((r) => r.cpuMs)))} ms ` +
      `(runs ${runs[side].map((r) => fixed(r.ms)).join(", ")})`);
  }
  const ratio = ms("forgeline") / ms("baseline");
  console.log(`  ratio ${fixed(ratio, 2)}`);
  return { forgeline: ms("forgeline"), baseline: ms("baseline"), ratio };
}

export async function measureClonePush(b: Bench, pairs: number): Promise<string> {
  const source = b.history.gitDir;
  const tip = (await git(["--git-dir", source, "rev-parse", "main"])).trim();
  const servers = { forgeline: b.forgeline, baseline: b.baseline };
  const pushed: Partial<Record<Side, string>> = {};
  let n = 0;
  console.log(`\nPush of the history (pack ${fixed(b.history.packBytes / 2 ** 20, 1)} MiB) into an empty repository, then git clone --bare of it; ${pairs} alternating pairs`);
  const pushes = await alternate(pairs, async (side) => {
    const url = await newRepository(b, side, `push-${++n}`);
    pushed[side] ??= url;
    const result = await timed(servers[side], ["--git-dir", source, "push", "--quiet", url, "main"]);
    const remote = (await git(["ls-remote", url, "refs/heads/main"])).split("\t")[0];
    if (remote !== tip) throw new Error(`${side}: main is ${remote} after the push, not ${tip}`);
    return result;
  });
  const clones = await alternate(pairs, async (side) => {
    const clone = path.join(b.dir, `clone-${++n}`);
    const result = await timed(servers[side], ["clone", "--bare", "--quiet", pushed[side]!, clone]);
    const cloned = (await git(["--git-dir", clone, "rev-parse", "main"])).trim();
    rmSync(clone, { recursive: true, force: true });
    if (cloned !== tip) throw new Error(`${side}: the clone's main is ${cloned}, not ${tip}`);
    return result;
  });
  const push = report("git push (1 branch, all commits)", pushes);
  const clone = report("git clone --bare", clones);
  return `git-clone-push clone=${fixed(clone.ratio, 2)}x (${fixed(clone.forgeline)} vs ${fixed(clone.baseline)} ms) ` +
    `push=${fixed(push.ratio, 2)}x (${fixed(push.forgeline)} vs ${fixed(push.baseline)} ms) target<=1.3x`;
}

const EMOJI = ["thumbsup", "thumbsdown", "heart", "tada", "smile", "rocket", "eyes", "fire", "star", "clap", "wave", "pray", "muscle",
  "sunglasses", "thinking", "joy", "sob", "angry", "skull", "ghost", "alien", "robot", "cat", "dog", "100"];

/** `npm run bench`'s award list: an issue with 25 reactions by 25 users; the first user's token reads. */
async function awardFixture(b: Bench): Promise<{ path: string; token: string }> {
  const project = await b.api("POST", "/projects", { name: "awards", path: "awards", namespace_id: b.groupId, visibility: "public" });
  const issue = await b.api("POST", `/projects/${project.id}/issues`, { title: "An issue with reactions" });
  const tokens: string[] = [];
  for (const [i, name] of EMOJI.entries()) {
    const user = await b.api("POST", "/users", { username: `reader${i}`, name: `Reader ${i}`, email: `reader${i}@bench.test`, password: "bench-password-123" });
    tokens.push((await b.api("POST", `/users/${user.id}/personal_access_tokens`, { name: "bench", scopes: ["api"] })).token);
    await b.api("POST", `/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name }, tokens[i]);
  }
  return { path: `/api/v4/projects/${project.id}/issues/${issue.iid}/award_emoji?per_page=20`, token: tokens[0]! };
}

interface ReadRoute {
  key: string;
  request: Request;
}

/** The routes that answer 200 now (the others reported and left out), each with its answer to check every response against. */
async function readableRoutes(b: Bench, routes: { key: string; path: string }[], token: string, rawFile: string): Promise<{ ok: ReadRoute[]; missing: string[] }> {
  const ok: ReadRoute[] = [];
  const missing: string[] = [];
  for (const route of routes) {
    const started = performance.now();
    const response = await fetch(b.forgeline.url + route.path, { headers: { "PRIVATE-TOKEN": token } });
    const body = await response.text();
    console.log(`  ${route.key.padEnd(6)} first answer ${response.status} in ${fixed(performance.now() - started, 1)} ms`);
    if (response.status !== 200) {
      console.log(`  ${route.key}: ${route.path} answered ${response.status} (${body.slice(0, 120)}): not measured`);
      missing.push(`${route.key}=${response.status}`);
      continue;
    }
    if (route.key === "raw" && body !== rawFile) throw new Error(`${route.path} did not answer the file's bytes`);
    if (route.key === "tree") checkTree(b.history, route.path, body);
    ok.push({ key: route.key, request: { path: route.path, headers: { "PRIVATE-TOKEN": token }, expectBody: body } });
  }
  return { ok, missing };
}

/** The tree answer lists the directory's files (its first page of 20). */
function checkTree(history: HistoryRepository, route: string, body: string): void {
  const entries = JSON.parse(body) as { path: string; type: string }[];
  const expected = Math.min(20, history.directoryEntries);
  if (entries.length !== expected || !entries.every((e) => e.type === "blob" && e.path.startsWith(`${history.directory}/`))) {
    throw new Error(`${route} answered ${entries.length} entries, not the ${expected} files of ${history.directory}: ${body.slice(0, 300)}`);
  }
}

function describeRead(key: string, runs: RunResult[]): string {
  const p50 = median(runs.map((r) => r.p50));
  return `  ${key.padEnd(6)} p50 ${fixed(p50, 2)} ms  p99 ${fixed(median(runs.map((r) => r.p99)), 2)} ms  ${fixed(median(runs.map((r) => r.rps)))} req/s  ` +
    `cpu ${fixed(median(runs.map((r) => r.cpuMsPerRequest)), 3)} ms/req (p50 of each run: ${runs.map((r) => fixed(r.p50, 2)).join(", ")})` +
    (runs.some((r) => r.unclean) ? `  UNCLEAN ${runs.reduce((sum, r) => sum + r.unclean, 0)}` : "");
}

/** `rounds` rounds of every route in turn (the order rotating), `seconds` each, at `connections`; by route the median p50 and the unclean answers. */
async function readRounds(b: Bench, routes: ReadRoute[], connections: number, rounds: number, seconds: number): Promise<Map<string, { p50: number; unclean: number }>> {
  for (const route of routes) await closedLoop(b.forgeline, route.request, connections, 1);
  const runs = new Map<string, RunResult[]>(routes.map((r) => [r.key, []]));
  for (let round = 0; round < rounds; round++) {
    const order = [...routes.slice(round % routes.length), ...routes.slice(0, round % routes.length)];
    for (const route of order) runs.get(route.key)!.push(await closedLoop(b.forgeline, route.request, connections, seconds));
  }
  console.log(`${connections} connection${connections > 1 ? "s" : ""}`);
  for (const [key, results] of runs) console.log(describeRead(key, results));
  return new Map([...runs].map(([key, results]) => [key, { p50: median(results.map((r) => r.p50)), unclean: results.reduce((sum, r) => sum + r.unclean, 0) }]));
}

export async function measureReads(b: Bench, rounds: number, seconds: number): Promise<string> {
  const award = await awardFixture(b);
  const project = await newProject(b, "browse");
  await git(["--git-dir", b.history.gitDir, "push", "--quiet", project.url, "main"]);
  const { filePath, directory } = b.history;
  const rawFile = await git(["--git-dir", b.history.gitDir, "cat-file", "blob", `main:${filePath}`]);
  console.log(`\nReads at 1 and 10 connections, ${rounds} rounds of ${seconds} s: the award list, ${filePath} raw (${b.history.fileBytes} bytes, ` +
    `last changed in commit ${b.history.fileChanged}), ` +
    `the tree of ${directory} (${b.history.directoryEntries} files)`);
  const { ok, missing } = await readableRoutes(b, [
    { key: "award", path: award.path },
    { key: "raw", path: `/api/v4/projects/${project.id}/repository/files/${encodeURIComponent(filePath)}/raw?ref=main` },
    { key: "tree", path: `/api/v4/projects/${project.id}/repository/tree?ref=main&path=${encodeURIComponent(directory)}` },
  ], award.token, rawFile);
  const parts: string[] = [];
  let unclean = 0;
  for (const connections of [1, 10]) {
    const results = await readRounds(b, ok, connections, rounds, seconds);
    const p50 = (key: string) => results.get(key)?.p50 ?? NaN;
    const ratio = (key: string) => (results.has(key) ? `${key}=${fixed(p50(key), 2)}ms(${fixed(p50(key) / p50("award"), 2)}x)` : `${key}=n/a`);
    parts.push(`c=${connections} award=${fixed(p50("award"), 2)}ms ${ratio("raw")} ${ratio("tree")}`);
    unclean += [...results.values()].reduce((sum, r) => sum + r.unclean, 0);
  }
  return `git-reads p50 ${parts.join(" | ")}${missing.length ? ` | not measured: ${missing.join(",")}` : ""}` +
    `${unclean ? ` | UNCLEAN answers ${unclean}` : ""} target<=2x award`;
}

interface PushReceiver {
  url: string;
  /** when (performance.now()) the push event whose `after` is `sha` arrived; null when it has not within `timeoutMs` */
  arrival(sha: string, timeoutMs: number): Promise<number | null>;
  close(): void;
}

/** The `after` of a push event's body (null for anything else). */
function pushedSha(body: string): string | null {
  try {
    return (JSON.parse(body) as { after?: string }).after ?? null;
  } catch {
    return null;
  }
}

async function startPushReceiver(): Promise<PushReceiver> {
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const at = performance.now();
      const after = pushedSha(Buffer.concat(chunks).toString("utf8"));
      if (after) arrived.set(after, at);
      if (after) waiting.get(after)?.(at);
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/push`,
    arrival: (sha, timeoutMs) => new Promise((resolve) => {
      if (arrived.has(sha)) return resolve(arrived.get(sha)!);
      const timer = setTimeout(() => resolve(null), timeoutMs);
      waiting.set(sha, (at) => (clearTimeout(timer), resolve(at)));
    }),
    close: () => server.close(),
  };
}

/** One new commit (a line added to a file) in the working copy; its id. */
async function commitOne(work: string, i: number): Promise<string> {
  writeFileSync(path.join(work, "pushes.txt"), `push ${i}\n`, { flag: "a" });
  await git(["-C", work, "commit", "--quiet", "-a", "-m", `Push ${i}`]);
  return (await git(["-C", work, "rev-parse", "HEAD"])).trim();
}

interface HookedProject {
  projectId: number;
  hookId: number;
  url: string;
  baselineUrl: string;
  /** a working copy of the history */
  work: string;
}

/** A project with the history and a push hook to the receiver, the same history behind the baseline, and a working copy. */
async function hookedProject(b: Bench, receiver: PushReceiver): Promise<HookedProject> {
  const project = await newProject(b, "hooked");
  const baselineUrl = await newBaselineRepository(b, "hooked");
  for (const url of [project.url, baselineUrl]) await git(["--git-dir", b.history.gitDir, "push", "--quiet", url, "main"]);
  const hook = await b.api("POST", `/projects/${project.id}/hooks`, { url: receiver.url, push_events: true });
  const work = path.join(b.dir, "hook-work");
  await git(["clone", "--quiet", b.history.gitDir, work]);
  writeFileSync(path.join(work, "pushes.txt"), "");
  await git(["-C", work, "add", "pushes.txt"]);
  return { projectId: project.id, hookId: hook.id, url: project.url, baselineUrl, work };
}

/** What Forgeline says of a push whose event did not arrive: its branch head and the hook's last recorded deliveries. */
async function missingDelivery(b: Bench, hooked: HookedProject, receiver: PushReceiver, sha: string, push: number, stderr: string): Promise<Error> {
  const late = await receiver.arrival(sha, 30_000);
  const branch = await b.api("GET", `/projects/${hooked.projectId}/repository/branches/main`).catch((error) => ({ error: String(error) }));
  const events = await b.api("GET", `/projects/${hooked.projectId}/hooks/${hooked.hookId}/events?per_page=3`).catch((error) => String(error));
  const recorded = Array.isArray(events)
    ? events.map((e: any) => `${e.id}: after ${e.request_data?.after} status ${e.response_status}`).join("; ")
    : events;
  return new Error(`push ${push}: no push event for ${sha} within 15 s (${late ? "it came later" : "nor 30 s after"}); ` +
    `Forgeline's main: ${branch.commit?.id ?? JSON.stringify(branch)}; the hook's last events: ${recorded}; git push printed: ${JSON.stringify(stderr.trim())}`);
}

export async function measureHookLatency(b: Bench, pushes: number): Promise<string> {
  const receiver = await startPushReceiver();
  try {
    const hooked = await hookedProject(b, receiver);
    const latencies: number[] = [];
    const pushMs: Record<Side, number[]> = { forgeline: [], baseline: [] };
    const printed: string[] = [];
    for (let i = 1; i <= pushes; i++) {
      const sha = await commitOne(hooked.work, i);
      const started = performance.now();
      const arrival = receiver.arrival(sha, 15_000);
      const pushed = await runTimed(["push", "--quiet", hooked.url, "HEAD:main"], hooked.work);
      pushMs.forgeline.push(pushed.ms);
      if (pushed.stderr.trim()) printed.push(`push ${i}: ${pushed.stderr.trim()}`);
      const at = await arrival;
      if (at === null) throw await missingDelivery(b, hooked, receiver, sha, i, pushed.stderr);
      latencies.push(at - started);
      await sleep(100);
      pushMs.baseline.push(await timeGit(["push", "--quiet", hooked.baselineUrl, "HEAD:main"], hooked.work));
      await sleep(100);
    }
    const stats = (values: number[]) => `p50 ${fixed(median(values))} ms, p95 ${fixed(percentile(values, 0.95))} ms, max ${fixed(Math.max(...values))} ms`;
    console.log(`\n${pushes} sequential pushes of one commit, a project hook on push events (loopback receiver)`);
    console.log(`  git push -> delivery received: ${stats(latencies)}\n  git push alone, Forgeline:     ${stats(pushMs.forgeline)}\n` +
      `  git push alone, baseline:      ${stats(pushMs.baseline)}`);
    // `git push --quiet` prints nothing unless the server's hooks said something (an error)
    if (printed.length) console.log(`  ${printed.length} pushes printed messages:\n    ${printed.slice(0, 5).join("\n    ")}`);
    return `git-push-hook p50=${fixed(median(latencies))}ms p95=${fixed(percentile(latencies, 0.95))}ms max=${fixed(Math.max(...latencies))}ms ` +
      `(git push alone p50=${fixed(median(pushMs.forgeline))}ms, http-backend ${fixed(median(pushMs.baseline))}ms; n=${pushes}` +
      `${printed.length ? `, ${printed.length} printed messages` : ""}) target p95<200ms`;
  } finally {
    receiver.close();
  }
}

/** The group's memory after it has been left alone: the median of 5 samples over half a second. */
async function idleMemory(server: Measured): Promise<MemorySample> {
  await sleep(2000);
  const samples: MemorySample[] = [];
  for (let i = 0; i < 5; i++, await sleep(100)) samples.push(sampleMemory(server.pid));
  const mid = (key: keyof MemorySample) => median(samples.map((s) => s[key]));
  return { total: mid("total"), anon: mid("anon"), node: mid("node"), git: mid("git") };
}

async function cloneWatched(b: Bench, server: Measured, url: string, side: Side) {
  const idle = await idleMemory(server);
  const clone = path.join(b.dir, `large-clone-${side}`);
  const watched = await samplePeaks(server.pid, 50, timeGit(["clone", "--bare", "--quiet", url, clone]));
  rmSync(clone, { recursive: true, force: true });
  const delta = (key: keyof MemorySample) => watched.peak[key] - idle[key];
  console.log(`  ${side.padEnd(9)} clone ${fixed(watched.result / 1000, 1)} s; RSS idle ${fixed(idle.total)} MiB, peak ${fixed(watched.peak.total)} MiB ` +
    `(+${fixed(delta("total"))}); node processes +${fixed(delta("node"))}, git processes peak ${fixed(watched.peak.git)} MiB, ` +
    `anonymous +${fixed(delta("anon"))} MiB; ${watched.samples} samples`);
  return { idle, peak: watched.peak, delta };
}

export async function measureRss(b: Bench, megabytes: number): Promise<string> {
  const source = path.join(b.dir, "large.git");
  const bytes = await createLarge(source, megabytes);
  const urls = { forgeline: (await newProject(b, "large")).url, baseline: await newBaselineRepository(b, "large") };
  const servers = { forgeline: b.forgeline, baseline: b.baseline };
  console.log(`\nA ${fixed(bytes / 2 ** 20)} MiB repository of random bytes: pushed, then cloned while the server's process group is sampled every 50 ms`);
  for (const side of SIDES) {
    const pushed = await timed(servers[side], ["--git-dir", source, "push", "--quiet", urls[side], "main"]);
    console.log(`  ${side.padEnd(9)} push ${fixed(pushed.ms / 1000, 1)} s (server cpu ${fixed(pushed.cpuMs / 1000, 1)} s)`);
  }
  rmSync(source, { recursive: true, force: true });
  const forgeline = await cloneWatched(b, b.forgeline, urls.forgeline, "forgeline");
  const baseline = await cloneWatched(b, b.baseline, urls.baseline, "baseline");
  return `git-clone-rss ${fixed(bytes / 2 ** 20)}MiB idle=${fixed(forgeline.idle.total)}MiB peak=${fixed(forgeline.peak.total)}MiB ` +
    `peak-idle=${fixed(forgeline.delta("total"))}MiB (node +${fixed(forgeline.delta("node"))}, anonymous +${fixed(forgeline.delta("anon"))}; ` +
    `http-backend peak-idle=${fixed(baseline.delta("total"))}MiB) target<100MB`;
}
