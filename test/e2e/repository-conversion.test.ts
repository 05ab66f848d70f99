// A database from before real git converted at start (src/domain/repository/conversion.ts): legacy
// Commit, Branch, Tag and MergeRequest rows written straight into the database of a project whose
// repository directory is gone, as the simulated repositories left them; then the repository is
// read with the `git` program itself (history, people, dates, parents, trees, refs) and through the
// API (new commit ids everywhere), nothing is published, and converting again changes nothing.
// Also: a conversion interrupted after git wrote its history, two servers converting at once, and
// a project from before that never had a commit.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { convertLegacyRepositories, type ConversionSummary } from "../../src/domain/repository/conversion.js";
import { subscribe } from "../../src/domain/shared/events.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProject } from "../helpers/factories.js";

let t: TestApp;
let rootId: number;

const published: string[] = [];
subscribe("push", async (_tx, event) => void published.push(`push ${event.branch}`));
subscribe("tag_push", async (_tx, event) => void published.push(`tag_push ${event.tag}`));

beforeAll(async () => {
  t = await startTestApp();
  rootId = (await t.services.db.user.findFirstOrThrow({ where: { username: "root" } })).id;
});

const EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
const legacySha = () => randomBytes(20).toString("hex");
const seconds = (iso: string) => String(new Date(iso).getTime() / 1000);

async function git(projectId: number, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("git", [`--git-dir=${t.services.git.pathOf(projectId)}`, ...args]);
  return stdout;
}

interface LegacyCommit {
  key: string;
  parents: string[];
  message: string;
  author: [string, string];
  committer: [string, string];
  at: string;
  tree: string[];
  removed?: string[];
}

/** Inserts the rows as the simulated repository kept them; returns each commit's legacy sha by key. */
async function insertLegacyHistory(projectId: number, commits: LegacyCommit[]): Promise<Map<string, string>> {
  const shas = new Map<string, string>();
  for (const commit of commits) {
    const sha = legacySha();
    shas.set(commit.key, sha);
    await t.services.db.commit.create({
      data: {
        projectId, sha, parentSha: shas.get(commit.parents[0]!) ?? null, secondParentSha: shas.get(commit.parents[1]!) ?? null,
        title: commit.message.split("\n")[0]!, message: commit.message,
        authorName: commit.author[0], authorEmail: commit.author[1], authoredAt: new Date(commit.at),
        committerName: commit.committer[0], committerEmail: commit.committer[1],
        removedPaths: JSON.stringify(commit.removed ?? []), treePaths: JSON.stringify(commit.tree),
      },
    });
  }
  return shas;
}

/** A project made through the API before real git (no README), its repository directory gone. */
async function legacyProject(): Promise<any> {
  const project = await createProject(t.root, { initialize_with_readme: false });
  await t.services.git.remove(project.id);
  return project;
}

async function convert(lines: string[] = []): Promise<ConversionSummary> {
  const summary = await convertLegacyRepositories(t.services, (message, error) => lines.push(error ? `${message}: ${error}` : message));
  t.forgetCaches();
  return summary;
}

const ALICE: [string, string] = ["Alice Example", "alice@example.com"];
const BJORN: [string, string] = ["Bjørn Ünïcode", "bjorn@example.com"];
const ROOT: [string, string] = ["Administrator", "admin@example.com"];

const HISTORY: LegacyCommit[] = [
  { key: "initial", parents: [], message: "Initial commit", author: ALICE, committer: ROOT, at: "2024-01-02T03:04:05Z", tree: ["README.md", "docs/old.md", "src/a.txt"] },
  {
    key: "feature", parents: ["initial"], message: "Add b\n\nOn the feature branch, with a path git quotes.", author: BJORN, committer: BJORN,
    at: "2024-01-03T10:00:00Z", tree: ["README.md", "docs/old.md", "src/a.txt", "src/b.txt", 'src/say "hi".txt'],
  },
  {
    key: "removal", parents: ["initial"], message: "Remove docs/old.md", author: ALICE, committer: ALICE,
    at: "2024-01-04T11:30:00Z", tree: ["README.md", "src/a.txt"], removed: ["docs/old.md"],
  },
  {
    key: "merge", parents: ["removal", "feature"], message: "Merge branch 'feature' into 'main'\n\nSee merge request !1", author: ROOT, committer: ROOT,
    at: "2024-01-05T12:00:00Z", tree: ["README.md", "src/a.txt", "src/b.txt", 'src/say "hi".txt'],
  },
];

interface GitCommit {
  sha: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authorTime: string;
  committerName: string;
  committerEmail: string;
  committerTime: string;
  message: string;
}

async function gitHistory(projectId: number): Promise<GitCommit[]> {
  const out = await git(projectId, "log", "--all", "-z", "--format=%H%x1f%P%x1f%an%x1f%ae%x1f%at%x1f%cn%x1f%ce%x1f%ct%x1f%ai%x1f%B");
  return out.split("\0").filter(Boolean).map((record) => {
    const [sha, parents, authorName, authorEmail, authorTime, committerName, committerEmail, committerTime, authorDate, message] = record.split("\x1f");
    expect(authorDate).toMatch(/ \+0000$/);
    return {
      sha: sha!, parents: parents ? parents.split(" ") : [], authorName: authorName!, authorEmail: authorEmail!, authorTime: authorTime!,
      committerName: committerName!, committerEmail: committerEmail!, committerTime: committerTime!, message: message!,
    };
  });
}

async function treeOf(projectId: number, sha: string): Promise<{ paths: string[]; blobs: Set<string> }> {
  const entries = (await git(projectId, "ls-tree", "-r", "-z", sha)).split("\0").filter(Boolean);
  const parsed = entries.map((entry) => {
    const [info, path] = entry.split("\t");
    return { blob: info!.split(" ")[2]!, path: path! };
  });
  return { paths: parsed.map((e) => e.path).sort(), blobs: new Set(parsed.map((e) => e.blob)) };
}

const refsOf = (projectId: number) => git(projectId, "for-each-ref", "--format=%(refname) %(objecttype) %(objectname) %(*objectname)");

describe("converting the simulated repositories of a database from before real git", () => {
  let project: any;
  let legacy: Map<string, string>;
  const squashSha = legacySha(); // a merge request's commit the history never recorded

  it("writes the history, branches and tags into git and rewrites the rows to the new ids, publishing nothing", async () => {
    project = await legacyProject();
    legacy = await insertLegacyHistory(project.id, HISTORY);
    const db = t.services.db;
    await db.branch.createMany({ data: [{ projectId: project.id, name: "main", headSha: legacy.get("merge")! }, { projectId: project.id, name: "feature", headSha: legacy.get("feature")! }] });
    await db.tag.create({ data: { projectId: project.id, name: "v1.0", targetSha: legacy.get("initial")!, createdAt: new Date("2024-01-02T04:00:00Z") } });
    await db.tag.create({
      data: {
        projectId: project.id, name: "v2.0", targetSha: legacy.get("merge")!, message: "Release 2.0",
        taggerName: "Carol Tagger", taggerEmail: "carol@example.com", createdAt: new Date("2024-02-01T09:08:07Z"),
      },
    });
    const mergedAt = new Date("2024-01-05T12:00:00Z");
    const mr = await db.mergeRequest.create({
      data: {
        projectId: project.id, iid: 1, title: "Add b", sourceBranch: "feature", targetBranch: "main", state: "merged", authorId: rootId, mergedById: rootId,
        mergedAt, headSha: legacy.get("feature")!, mergeCommitSha: legacy.get("merge")!, squashCommitSha: squashSha, updatedAt: mergedAt,
      },
    });
    t.forgetCaches();

    const lines: string[] = [];
    const summary = await convert(lines);
    expect(summary).toMatchObject({ converted: 1, commits: 4, failed: 0 });
    expect(lines).toContain(`Converted the repository of project ${project.id} into git: 4 commits`);
    expect(lines.at(-1)).toMatch(/^Legacy repositories: 1 converted into git \(4 commits\)/);
    expect(published).toEqual([]);

    // the history, as git reads it
    const history = await gitHistory(project.id);
    expect(history).toHaveLength(4);
    const byKey = new Map(HISTORY.map((legacyCommit) => [legacyCommit.key, history.find((c) => c.message === legacyCommit.message)!]));
    for (const legacyCommit of HISTORY) {
      const commit = byKey.get(legacyCommit.key)!;
      expect(commit, legacyCommit.key).toEqual({
        sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        parents: legacyCommit.parents.map((key) => byKey.get(key)!.sha),
        authorName: legacyCommit.author[0], authorEmail: legacyCommit.author[1], authorTime: seconds(legacyCommit.at),
        committerName: legacyCommit.committer[0], committerEmail: legacyCommit.committer[1], committerTime: seconds(legacyCommit.at),
        message: legacyCommit.message,
      });
      expect(commit.sha).not.toBe(legacy.get(legacyCommit.key));
      const tree = await treeOf(project.id, commit.sha);
      expect(tree.paths, legacyCommit.key).toEqual([...legacyCommit.tree].sort());
      expect([...tree.blobs]).toEqual([EMPTY_BLOB]);
    }
    const sha = (key: string) => byKey.get(key)!.sha;
    expect(await git(project.id, "log", "-1", "--format=", "--name-status", sha("removal"))).toBe("D\tdocs/old.md\n");
    expect(await git(project.id, "log", "--format=%s", "--name-only", "--first-parent", "main")).toContain("Remove docs/old.md\n\ndocs/old.md\n");

    // the refs, as the rows said
    const tagObject = (await git(project.id, "rev-parse", "refs/tags/v2.0")).trim();
    expect((await refsOf(project.id)).split("\n").filter(Boolean).sort()).toEqual([
      `refs/heads/feature commit ${sha("feature")} `,
      `refs/heads/main commit ${sha("merge")} `,
      `refs/tags/v1.0 commit ${sha("initial")} `,
      `refs/tags/v2.0 tag ${tagObject} ${sha("merge")}`,
    ]);
    expect((await git(project.id, "cat-file", "-t", "v2.0")).trim()).toBe("tag");
    expect((await git(project.id, "cat-file", "-t", "v1.0")).trim()).toBe("commit");
    expect(await git(project.id, "cat-file", "tag", "v2.0")).toBe(
      `object ${sha("merge")}\ntype commit\ntag v2.0\ntagger Carol Tagger <carol@example.com> ${seconds("2024-02-01T09:08:07Z")} +0000\n\nRelease 2.0\n`,
    );
    expect((await git(project.id, "symbolic-ref", "HEAD")).trim()).toBe("refs/heads/main");

    // the API shows the new ids
    const p = `/projects/${project.id}`;
    const commits = await t.root.get(`${p}/repository/commits`);
    expect(commits.status, commits.text).toBe(200);
    expect(commits.body.map((c: any) => c.id).sort()).toEqual(["initial", "feature", "removal", "merge"].map(sha).sort());
    expect(commits.body.find((c: any) => c.id === sha("merge"))).toMatchObject({
      parent_ids: [sha("removal"), sha("feature")], title: "Merge branch 'feature' into 'main'", author_name: "Administrator",
    });
    expect(new Date(commits.body.find((c: any) => c.id === sha("merge")).authored_date)).toEqual(new Date("2024-01-05T12:00:00Z"));
    const tags = await t.root.get(`${p}/repository/tags`);
    expect(tags.body.map((tag: any) => [tag.name, tag.commit.id, tag.target, tag.message]).sort()).toEqual([
      ["v1.0", sha("initial"), sha("initial"), ""],
      ["v2.0", sha("merge"), tagObject, "Release 2.0"],
    ]);
    const branches = await t.root.get(`${p}/repository/branches`);
    expect(branches.body.map((b: any) => [b.name, b.commit.id, b.default])).toEqual([["feature", sha("feature"), false], ["main", sha("merge"), true]]);
    const shown = await t.root.get(`${p}/merge_requests/1`);
    expect(shown.body).toMatchObject({ sha: sha("feature"), merge_commit_sha: sha("merge"), squash_commit_sha: squashSha, state: "merged" });
    expect((await db.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } })).updatedAt).toEqual(mergedAt);
    expect(await db.commit.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("changes nothing when run again", async () => {
    const refs = await refsOf(project.id);
    const lines: string[] = [];
    expect(await convert(lines)).toEqual({ converted: 0, commits: 0, created: 0, failed: 0 });
    expect(lines).toEqual([]);
    expect(await refsOf(project.id)).toBe(refs);
    expect(published).toEqual([]);
  });

  it("redoes a conversion a crash interrupted, converts once when two servers start together, and gives a project without history an empty repository", async () => {
    const interrupted = await legacyProject();
    const legacyIds = await insertLegacyHistory(interrupted.id, [HISTORY[0]!]);
    await t.services.db.branch.create({ data: { projectId: interrupted.id, name: "main", headSha: legacyIds.get("initial")! } });
    // what a crash after fast-import and before the transaction leaves: a repository, the rows as they were
    await t.services.git.create(interrupted.id, "main");
    const stray = (await git(interrupted.id, "commit-tree", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "-m", "half-written")).trim();
    await git(interrupted.id, "update-ref", "refs/heads/stray", stray);
    const empty = await legacyProject();

    const lines: string[] = [];
    const [first, second] = await Promise.all([convert(lines), convert(lines)]);
    expect(first.converted + second.converted).toBe(1);
    expect(first.created + second.created).toBe(1);
    expect(first.failed + second.failed).toBe(0);
    expect(lines.filter((line) => line.startsWith("Converted"))).toEqual([`Converted the repository of project ${interrupted.id} into git: 1 commits`]);

    const [commit] = await gitHistory(interrupted.id);
    expect(await refsOf(interrupted.id)).toBe(`refs/heads/main commit ${commit!.sha} \n`);
    expect(commit).toMatchObject({ message: "Initial commit", parents: [], authorName: ALICE[0] });
    expect((await t.services.db.branch.findMany({ where: { projectId: interrupted.id } })).map((b) => b.headSha)).toEqual([commit!.sha]);

    expect(t.services.git.exists(empty.id)).toBe(true);
    expect(await refsOf(empty.id)).toBe("");
    expect((await git(empty.id, "symbolic-ref", "HEAD")).trim()).toBe(`refs/heads/${empty.default_branch ?? "main"}`);
    expect((await t.root.get(`/projects/${empty.id}`)).body.empty_repo).toBe(true);
    expect(published).toEqual([]);
  });

  it("leaves a project whose conversion fails as it was, without a repository, and converts it at the next start", async () => {
    const broken = await legacyProject();
    const legacyIds = await insertLegacyHistory(broken.id, [HISTORY[0]!]);
    await t.services.db.branch.create({ data: { projectId: broken.id, name: "main", headSha: legacyIds.get("initial")! } });
    await t.services.db.commit.updateMany({ where: { projectId: broken.id }, data: { treePaths: "not json" } });

    const lines: string[] = [];
    expect(await convert(lines)).toMatchObject({ converted: 0, failed: 1 });
    expect(lines[0]).toMatch(new RegExp(`^The repository of project ${broken.id} could not be converted into git; the next start tries again: SyntaxError`));
    expect(t.services.git.exists(broken.id)).toBe(false);
    expect(await t.services.db.commit.count({ where: { projectId: broken.id } })).toBe(1);
    expect((await t.services.db.branch.findFirstOrThrow({ where: { projectId: broken.id } })).headSha).toBe(legacyIds.get("initial"));

    // git itself refusing (a path it does not take) fails the same way, with git's own words
    await t.services.db.commit.updateMany({ where: { projectId: broken.id }, data: { treePaths: JSON.stringify(["README.md", "a//b"]) } });
    lines.length = 0;
    expect(await convert(lines)).toMatchObject({ converted: 0, failed: 1 });
    expect(lines[0]).toMatch(/could not be converted into git; the next start tries again: .*fast-import .* failed \(128\): fatal: Empty path component/);
    expect(t.services.git.exists(broken.id)).toBe(false);

    await t.services.db.commit.updateMany({ where: { projectId: broken.id }, data: { treePaths: JSON.stringify(["README.md"]) } });
    expect(await convert()).toMatchObject({ converted: 1, failed: 0 });
    const [commit] = await gitHistory(broken.id);
    expect((await treeOf(broken.id, commit!.sha)).paths).toEqual(["README.md"]);
    expect(published).toEqual([]);
  });
});
