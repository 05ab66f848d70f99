// One bare repository: its objects read through the store's cat-file processes (immutable objects
// cached by id), objects written as loose files, refs listed and moved by `git` itself (moves are
// compare-and-swap: a ref that moved meanwhile fails the whole update), and the history commands.
import { runGit, GitCommandError, gitText } from "./command.js";
import type { GitStore } from "./store.js";
import { writeLooseObject } from "./object-writer.js";
import {
  NULL_SHA, isSha, parseCommit, parseTag, parseTree, serializeCommit, serializeTag, serializeTree,
  type CommitObject, type NewCommit, type NewTag, type ObjectType, type TagObject, type TreeEntry,
} from "./objects.js";
import type { ObjectInfo } from "./cat-file.js";

export interface Ref {
  /** "refs/heads/main" */
  name: string;
  /** what the ref points at (an annotated tag's own object for such tags) */
  sha: string;
  /** the commit an annotated tag points at (null for other refs) */
  peeled: string | null;
}

export interface RefUpdate {
  ref: string;
  /** NULL_SHA: the ref must not exist yet */
  oldSha: string;
  /** NULL_SHA: delete the ref */
  newSha: string;
}

/** A ref moved under the caller's feet (or a created one already exists). */
export class StaleRefError extends Error {
  constructor(readonly refs: string[], detail: string) {
    super(`stale ref ${refs.join(", ")}: ${detail}`);
  }
}

export interface PathEntry extends TreeEntry {
  /** the full path from the root of the tree */
  path: string;
}

/** API writes to one repository between two `git gc --auto`. */
const WRITES_PER_MAINTENANCE = 50;
const writesSinceMaintenance = new Map<string, number>();

/** git's empty tree, which every repository knows. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** Blobs up to this size are kept in the object cache; bigger ones are read each time. */
const CACHED_BLOB_BYTES = 64 * 1024;

export class GitRepository {
  constructor(
    readonly gitDir: string,
    private readonly store: GitStore,
  ) {}

  /** `compute`'s answer about this repository's immutable objects, kept by `key` (see GitStore.remember). */
  remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.store.remember(`${this.gitDir}\0${key}`, compute);
  }

  // --- objects

  /** Type and size of what `name` names (an object id, a ref, `<rev>^{commit}`), or null. */
  info(name: string): Promise<ObjectInfo | null> {
    return this.store.catFile.info(this.gitDir, name);
  }

  private async objectData(sha: string, expected: ObjectType): Promise<Buffer | null> {
    if (!isSha(sha)) return null;
    const key = `${this.gitDir}\0${sha}`;
    const cached = this.store.objects.get(key);
    if (cached) return cached.type === expected ? cached.data : null;
    const object = await this.store.catFile.contents(this.gitDir, sha);
    if (!object) return null;
    if (object.type !== "blob" || object.size <= CACHED_BLOB_BYTES) this.store.objects.set(key, { type: object.type, data: object.data });
    return object.type === expected ? object.data : null;
  }

  async commit(sha: string): Promise<CommitObject | null> {
    const data = await this.objectData(sha, "commit");
    return data && parseCommit(sha, data);
  }

  async tree(sha: string): Promise<TreeEntry[] | null> {
    const data = await this.objectData(sha, "tree");
    return data && parseTree(data);
  }

  async tag(sha: string): Promise<TagObject | null> {
    const data = await this.objectData(sha, "tag");
    return data && parseTag(sha, data);
  }

  /** A blob's bytes (callers check the size through `info` before reading a big one). */
  blob(sha: string): Promise<Buffer | null> {
    return this.objectData(sha, "blob");
  }

  /** The commit `name` comes to (a tag peeled), or null. `name` is passed to git as it is. */
  async commitShaOf(name: string): Promise<string | null> {
    const info = await this.info(`${name}^{commit}`);
    return info?.sha ?? null;
  }

  /** The entry at `path` in the tree of a commit or tree (null: no such path); "" is the root. */
  async entryAt(treeish: string, path: string): Promise<PathEntry | null> {
    const commit = await this.commit(treeish);
    let tree: PathEntry = { mode: "40000", type: "tree", name: "", sha: commit ? commit.tree : treeish, path: "" };
    for (const name of path.split("/").filter(Boolean)) {
      if (tree.type !== "tree") return null;
      const entries = await this.tree(tree.sha);
      const entry = entries?.find((e) => e.name === name);
      if (!entry) return null;
      tree = { ...entry, path: tree.path ? `${tree.path}/${name}` : name };
    }
    return tree;
  }

  // --- writes

  writeBlob(content: Buffer): Promise<string> {
    return writeLooseObject(this.gitDir, "blob", content);
  }

  writeTree(entries: readonly TreeEntry[]): Promise<string> {
    return writeLooseObject(this.gitDir, "tree", serializeTree(entries));
  }

  writeCommit(commit: NewCommit): Promise<string> {
    return writeLooseObject(this.gitDir, "commit", serializeCommit(commit));
  }

  writeTag(tag: NewTag): Promise<string> {
    return writeLooseObject(this.gitDir, "tag", serializeTag(tag));
  }

  // --- refs

  /** Every ref under the prefixes (default: branches and tags), with annotated tags peeled. */
  async refs(prefixes: readonly string[] = ["refs/heads/", "refs/tags/"]): Promise<Ref[]> {
    const out = await runGit(this.gitDir, ["for-each-ref", "--format=%(objectname) %(*objectname) %(refname)", ...prefixes]);
    return out.stdout
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [sha, peeled, ...name] = line.split(" ");
        return { sha: sha!, peeled: peeled || null, name: name.join(" ") };
      });
  }

  /** The names of the refs under the prefixes whose target `sha`'s history holds. */
  async refsMergedInto(sha: string, prefixes: readonly string[]): Promise<string[]> {
    const text = await gitText(this.gitDir, ["for-each-ref", `--merged=${sha}`, "--format=%(refname)", ...prefixes]);
    return text ? text.split("\n") : [];
  }

  /** The names of the refs under the prefixes whose history holds `sha`. */
  async refsContaining(sha: string, prefixes: readonly string[]): Promise<string[]> {
    const text = await gitText(this.gitDir, ["for-each-ref", `--contains=${sha}`, "--format=%(refname)", ...prefixes]);
    return text ? text.split("\n") : [];
  }

  /** Moves refs all together or not at all, each from the value the caller saw. */
  async updateRefs(updates: readonly RefUpdate[]): Promise<void> {
    if (!updates.length) return;
    const input = updates
      .map(({ ref, oldSha, newSha }) =>
        newSha === NULL_SHA ? `delete ${ref}\0${oldSha}\0` : oldSha === NULL_SHA ? `create ${ref}\0${newSha}\0` : `update ${ref}\0${newSha}\0${oldSha}\0`,
      )
      .join("");
    try {
      await runGit(this.gitDir, ["update-ref", "--stdin", "-z"], { input });
    } catch (error) {
      if (error instanceof GitCommandError && /cannot lock ref|reference already exists|is at .* but expected|unable to resolve reference/.test(error.stderr)) {
        throw new StaleRefError(updates.map((u) => u.ref), error.stderr.trim());
      }
      throw error;
    }
  }

  /**
   * `git gc --auto` now and then: pushes run it themselves (receive.autogc), but the loose objects
   * the API writes would otherwise pile up. It does nothing until git's own thresholds are passed.
   */
  noteWrite(): void {
    const count = (writesSinceMaintenance.get(this.gitDir) ?? 0) + 1;
    writesSinceMaintenance.set(this.gitDir, count % WRITES_PER_MAINTENANCE);
    if (count < WRITES_PER_MAINTENANCE) return;
    void runGit(this.gitDir, ["gc", "--auto", "--quiet"], { timeoutMs: 10 * 60_000 }).catch(() => {});
  }

  /** Points HEAD (what a clone checks out) at the branch. */
  async setHead(branch: string): Promise<void> {
    await runGit(this.gitDir, ["symbolic-ref", "HEAD", `refs/heads/${branch}`]);
  }

  // --- history

  /** `git merge-base <a> <b>...`: the best common ancestor, or null. */
  async mergeBase(shas: readonly string[]): Promise<string | null> {
    const out = await runGit(this.gitDir, ["merge-base", ...shas], { okExitCodes: [1] });
    return out.exitCode === 0 ? out.stdout.toString("utf8").trim() || null : null;
  }

  /** Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor). */
  async isAncestor(ancestor: string, descendant: string, env?: Record<string, string>): Promise<boolean> {
    const out = await runGit(this.gitDir, ["merge-base", "--is-ancestor", ancestor, descendant], { okExitCodes: [1], env });
    return out.exitCode === 0;
  }

  /** `git rev-list <args>`: commit ids, in the order git lists them. */
  async revList(args: readonly string[], env?: Record<string, string>): Promise<string[]> {
    const text = await gitText(this.gitDir, ["rev-list", ...args], { env });
    return text ? text.split("\n") : [];
  }

  /**
   * `git merge-tree --write-tree`: the tree of merging the two commits (their merge base found by
   * git), or the conflicted paths.
   */
  async mergeTree(ours: string, theirs: string): Promise<{ tree: string; conflicts: null } | { tree: null; conflicts: string[] }> {
    const out = await runGit(this.gitDir, ["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", "--allow-unrelated-histories", ours, theirs], {
      okExitCodes: [1],
    });
    const [tree, ...paths] = out.stdout.toString("utf8").split("\0").filter(Boolean);
    if (out.exitCode === 0) return { tree: tree!, conflicts: null };
    return { tree: null, conflicts: [...new Set(paths)] };
  }

  /** Lines added and deleted from `from` (null: the empty tree) to `to`, over every file. */
  numstat(from: string | null, to: string): Promise<{ additions: number; deletions: number }> {
    return this.remember(`numstat\0${from}\0${to}`, async () => {
      const text = await gitText(this.gitDir, ["diff", "--numstat", "-z", "--no-renames", from ?? EMPTY_TREE, to]);
      let additions = 0;
      let deletions = 0;
      for (const line of text.split("\0")) {
        const [added, deleted] = line.split("\t");
        if (added && added !== "-") additions += Number(added);
        if (deleted && deleted !== "-") deletions += Number(deleted);
      }
      return { additions, deletions };
    });
  }

  /** The newest commit in `sha`'s history that changed `path` (taken literally), or null; kept by commit and path. */
  lastCommitForPath(sha: string, path: string): Promise<string | null> {
    return this.store.remember(`${this.gitDir}\0last\0${sha}\0${path}`, async () => {
      const text = await gitText(this.gitDir, ["--literal-pathspecs", "rev-list", "--max-count=1", sha, "--", path]);
      return text || null;
    });
  }

  /**
   * `git grep` in the tree of `commit`: each text file's lines holding `term` (taken literally,
   * any case), as raw `--null` output with `context` lines around each match (no match: "").
   */
  async grep(commit: string, term: string, context: number): Promise<string> {
    const out = await runGit(this.gitDir, [
      "grep", "-I", "--ignore-case", "--fixed-strings", "--line-number", "--null", `--context=${context}`, "--full-name", "--no-color",
      "-e", term, commit, "--",
    ], { okExitCodes: [1] });
    return out.exitCode === 0 ? out.stdout.toString("utf8") : "";
  }

  /** Every file path in the tree of `commit` (ls-tree -r, NUL-separated). */
  async filePaths(commit: string): Promise<string[]> {
    const text = await gitText(this.gitDir, ["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit]);
    return text.split("\0").filter(Boolean);
  }

  /** Several commits read at once (missing ones left out), in the order asked. */
  async commits(shas: readonly string[]): Promise<CommitObject[]> {
    const read = await Promise.all(shas.map((sha) => this.commit(sha)));
    return read.filter((commit): commit is CommitObject => commit !== null);
  }
}
