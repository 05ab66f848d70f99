// The git layer against the real `git` program: objects the server writes (blobs, trees in git's
// order, commits, tags) are exactly what git writes and accepts (`git fsck --strict`), and the
// long-running cat-file reader hands back big objects and many requests in flight intact.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GitStore } from "../../src/git/store.js";
import { parseSignature, type TreeEntry } from "../../src/git/objects.js";

const git = (gitDir: string, args: string[], input?: Buffer | string) =>
  execFileSync("git", [`--git-dir=${gitDir}`, ...args], { input, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });

async function repository() {
  const store = new GitStore(mkdtempSync(path.join(os.tmpdir(), "forgeline-git-unit-")));
  const repo = await store.create(1, "main");
  return { store, repo };
}

describe("a repository made by the server", () => {
  it("is what `git init --bare` makes: bare, HEAD on the default branch, empty, and sound", async () => {
    const store = new GitStore(mkdtempSync(path.join(os.tmpdir(), "forgeline-git-unit-")));
    const repo = await store.create(7, "trunk");
    expect(git(repo.gitDir, ["rev-parse", "--is-bare-repository"]).toString().trim()).toBe("true");
    expect(git(repo.gitDir, ["symbolic-ref", "HEAD"]).toString().trim()).toBe("refs/heads/trunk");
    expect(git(repo.gitDir, ["config", "receive.fsckObjects"]).toString().trim()).toBe("true");
    expect(git(repo.gitDir, ["for-each-ref"]).toString()).toBe("");
    git(repo.gitDir, ["fsck", "--strict"]);
    // made again: kept as it is
    git(repo.gitDir, ["symbolic-ref", "HEAD", "refs/heads/other"]);
    await store.create(7, "trunk");
    expect(git(repo.gitDir, ["symbolic-ref", "HEAD"]).toString().trim()).toBe("refs/heads/other");
  });
});

describe("objects written by the server", () => {
  it("have the ids git gives the same content, and trees sort as git sorts them", async () => {
    const { repo } = await repository();
    const content = Buffer.from("hello\n");
    const blob = await repo.writeBlob(content);
    expect(blob).toBe(git(repo.gitDir, ["hash-object", "--stdin"], content).toString().trim());
    // names whose order differs between plain byte order and git's (a folder sorts as "name/")
    const names = ["a-b", "a.b", "a", "a0", "b"];
    const sub = await repo.writeTree([{ mode: "100644", type: "blob", name: "inner", sha: blob }]);
    const entries: TreeEntry[] = names.map((name) => (name === "a" ? { mode: "40000", type: "tree", name, sha: sub } : { mode: "100644", type: "blob", name, sha: blob }));
    const tree = await repo.writeTree(entries);
    const listing = git(repo.gitDir, ["ls-tree", tree]).toString().trim().split("\n").map((line) => line.split("\t")[1]);
    const mktree = git(repo.gitDir, ["mktree"], git(repo.gitDir, ["ls-tree", tree])).toString().trim();
    expect(tree).toBe(mktree);
    expect(listing).toEqual(["a-b", "a.b", "a", "a0", "b"]);
    const who = parseSignature("Ann <ann@example.com> 1700000000 +0200");
    const commit = await repo.writeCommit({ tree, parents: [], author: who, committer: who, message: "First\n\nBody\n" });
    const tag = await repo.writeTag({ object: commit, objectType: "commit", name: "v1", tagger: who, message: "Release" });
    expect(git(repo.gitDir, ["cat-file", "-t", tag]).toString().trim()).toBe("tag");
    expect(git(repo.gitDir, ["log", "-1", "--format=%an|%ae|%ai|%B", commit]).toString()).toBe("Ann|ann@example.com|2023-11-15 00:13:20 +0200|First\n\nBody\n\n");
    git(repo.gitDir, ["update-ref", "refs/tags/v1", tag]);
    git(repo.gitDir, ["fsck", "--strict", "--no-dangling"]);
  });

  it("read back through cat-file as git wrote them, big ones and many at once", async () => {
    const { repo } = await repository();
    const big = randomBytes(5 * 1024 * 1024 + 17);
    const bigSha = git(repo.gitDir, ["hash-object", "-w", "--stdin"], big).toString().trim();
    const small = await Promise.all(Array.from({ length: 200 }, (_, i) => repo.writeBlob(Buffer.from(`blob ${i}\n`))));
    const [readBig, ...readSmall] = await Promise.all([repo.blob(bigSha), ...small.map((sha) => repo.blob(sha))]);
    expect(readBig!.equals(big)).toBe(true);
    expect(readSmall.map((data) => data!.toString())).toEqual(small.map((_, i) => `blob ${i}\n`));
    expect(await repo.blob("0".repeat(40))).toBeNull();
    expect(await repo.info("refs/heads/nothing")).toBeNull();
    expect(await repo.info(`${small[0]}\n${small[1]}`)).toBeNull();
  });
});
