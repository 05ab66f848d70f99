// The merge measure of `npm run bench:git` (`--only merge`): PUT .../merge of a merge request of
// 100 commits changing 1,000 files into a target that moved on, against `git merge --no-ff` run by
// hand on a clone of the same repository (and, for reference, the plumbing a server runs:
// merge-tree, commit-tree, update-ref on a bare copy). Each Forgeline run merges in a project of
// its own, pushed with the same history; the merge commit's tree must equal git's.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { median, runTimed } from "./git-sampling.js";
import { git } from "./git-repos.js";
import type { Bench } from "./git-measures.js";

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

interface MergeHistory {
  /** a non-bare repository with `main` and `topic` */
  work: string;
  mainSha: string;
  topicSha: string;
}

/** Base of 1,000 files on main; `topic` changes all of them over 100 commits; main then moves on. */
async function createMergeHistory(dir: string, commits: number, filesPerCommit: number): Promise<MergeHistory> {
  const work = path.join(dir, "merge-work");
  await git(["init", "--quiet", "--initial-branch=main", work]);
  const fileOf = (i: number) => path.join(work, "src", `module-${String(i).padStart(4, "0")}.ts`);
  mkdirSync(path.join(work, "src"), { recursive: true });
  const files = commits * filesPerCommit;
  for (let i = 0; i < files; i++) writeFileSync(fileOf(i), Array.from({ length: 40 }, (_, line) => `export const value${line} = ${i * 40 + line};`).join("\n") + "\n");
  writeFileSync(path.join(work, "CHANGELOG.md"), "# Changes\n");
  await git(["-C", work, "add", "-A"]);
  await git(["-C", work, "commit", "--quiet", "-m", "Base"]);
  await git(["-C", work, "checkout", "--quiet", "-b", "topic"]);
  for (let c = 0; c < commits; c++) {
    for (let f = c * filesPerCommit; f < (c + 1) * filesPerCommit; f++) writeFileSync(fileOf(f), `// changed in commit ${c + 1}\n`, { flag: "a" });
    await git(["-C", work, "commit", "--quiet", "-a", "-m", `Change ${filesPerCommit} modules (${c + 1} of ${commits})`]);
  }
  await git(["-C", work, "checkout", "--quiet", "main"]);
  writeFileSync(path.join(work, "CHANGELOG.md"), "# Changes\n\n- the target moved on\n");
  await git(["-C", work, "commit", "--quiet", "-a", "-m", "Target moves on"]);
  const rev = async (ref: string) => (await git(["-C", work, "rev-parse", ref])).trim();
  return { work, mainSha: await rev("main"), topicSha: await rev("topic") };
}

/** One Forgeline merge: a project pushed with both branches, its merge request checked, then merged (timed). */
async function forgelineMerge(b: Bench, history: MergeHistory, run: number): Promise<{ ms: number; tree: string }> {
  const project = await b.api("POST", "/projects", { name: `merge-${run}`, path: `merge-${run}`, namespace_id: b.groupId, visibility: "public" });
  const url = new URL(`${b.forgeline.url}/${project.path_with_namespace}.git`);
  url.username = "bench";
  url.password = b.token;
  await git(["-C", history.work, "push", "--quiet", url.toString(), "main", "topic"]);
  const mr = await b.api("POST", `/projects/${project.id}/merge_requests`, { source_branch: "topic", target_branch: "main", title: "Topic" });
  const checked = await b.api("GET", `/projects/${project.id}/merge_requests/${mr.iid}`);
  if (checked.detailed_merge_status !== "mergeable") throw new Error(`merge request ${mr.iid}: ${checked.detailed_merge_status}`);
  const started = performance.now();
  const merged = await b.api("PUT", `/projects/${project.id}/merge_requests/${mr.iid}/merge`);
  const ms = performance.now() - started;
  const commit = await b.api("GET", `/projects/${project.id}/repository/commits/${merged.merge_commit_sha}`);
  if (commit.parent_ids.join(" ") !== `${history.mainSha} ${history.topicSha}`) throw new Error(`merge commit parents ${commit.parent_ids}`);
  return { ms, tree: await treeOfRemote(b, url.toString(), merged.merge_commit_sha, run) };
}

/** The tree of `sha` in the remote (fetched into a scratch repository). */
async function treeOfRemote(b: Bench, url: string, sha: string, run: number): Promise<string> {
  const scratch = path.join(b.dir, `merge-fetch-${run}`);
  await git(["init", "--quiet", "--bare", scratch]);
  await git(["--git-dir", scratch, "fetch", "--quiet", url, "main"]);
  return (await git(["--git-dir", scratch, "rev-parse", `${sha}^{tree}`])).trim();
}

/** `git merge --no-ff` by hand in a fresh clone (the clone untimed). */
async function mergeByHand(b: Bench, history: MergeHistory, run: number): Promise<{ ms: number; tree: string }> {
  const clone = path.join(b.dir, `merge-clone-${run}`);
  await git(["clone", "--quiet", "--no-local", history.work, clone]);
  await git(["-C", clone, "branch", "--quiet", "topic", "origin/topic"]);
  const { ms } = await runTimed(["-C", clone, "merge", "--quiet", "--no-ff", "--no-edit", "topic"]);
  return { ms, tree: (await git(["-C", clone, "rev-parse", "HEAD^{tree}"])).trim() };
}

/** What a server does without a working tree: merge-tree, commit-tree, update-ref on a bare copy. */
async function mergeByPlumbing(b: Bench, history: MergeHistory, run: number): Promise<number> {
  const bare = path.join(b.dir, `merge-bare-${run}`);
  await git(["clone", "--quiet", "--bare", "--no-local", history.work, bare]);
  const started = performance.now();
  const tree = (await git(["--git-dir", bare, "merge-tree", "--write-tree", "main", "topic"])).trim().split("\n")[0]!;
  const commit = (await git(["--git-dir", bare, "commit-tree", tree, "-p", "main", "-p", "topic", "-m", "Merge topic"])).trim();
  await git(["--git-dir", bare, "update-ref", "refs/heads/main", commit, history.mainSha]);
  return performance.now() - started;
}

export async function measureMerge(b: Bench, runs: number, commits = 100, filesPerCommit = 10): Promise<string> {
  const history = await createMergeHistory(b.dir, commits, filesPerCommit);
  console.log(`\nMerge of ${commits} commits changing ${commits * filesPerCommit} files into a target that moved on; ${runs} runs of each`);
  const forgeline: number[] = [];
  const byHand: number[] = [];
  const plumbing: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const served = await forgelineMerge(b, history, run);
    const hand = await mergeByHand(b, history, run);
    if (served.tree !== hand.tree) throw new Error(`run ${run}: Forgeline's merge tree ${served.tree} is not git's ${hand.tree}`);
    forgeline.push(served.ms);
    byHand.push(hand.ms);
    plumbing.push(await mergeByPlumbing(b, history, run));
  }
  const [f, h, p] = [median(forgeline), median(byHand), median(plumbing)];
  console.log(`  PUT .../merge           median ${fixed(f)} ms (runs ${forgeline.map((ms) => fixed(ms)).join(", ")})`);
  console.log(`  git merge --no-ff       median ${fixed(h)} ms (runs ${byHand.map((ms) => fixed(ms)).join(", ")})`);
  console.log(`  merge-tree + commit-tree + update-ref  median ${fixed(p)} ms`);
  console.log(`  ratio to git merge ${fixed(f / h, 2)}, to the plumbing ${fixed(f / p, 2)}`);
  return `git-merge ${fixed(f / h, 2)}x git merge (${fixed(f)} vs ${fixed(h)} ms; plumbing ${fixed(p)} ms) target<=2x`;
}
