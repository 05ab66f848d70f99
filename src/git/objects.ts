// Git's object formats (commit, tree, tag): parsed from what `cat-file` prints and serialised for
// writing. The formats are git's own (Documentation/gitformat-*), stable since git began.
export type ObjectType = "blob" | "tree" | "commit" | "tag";

export const NULL_SHA = "0".repeat(40);
export const isSha = (value: string) => /^[0-9a-f]{40}$/.test(value);

/** A person and a moment, as commits and tags record them (the offset kept as written). */
export interface Signature {
  name: string;
  email: string;
  date: Date;
  /** "+0200", "-0530" */
  timezone: string;
}

export interface CommitObject {
  sha: string;
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  /** the whole message, as written */
  message: string;
}

export type TreeEntryType = "blob" | "tree" | "commit";

export interface TreeEntry {
  /** "100644", "100755", "120000" (symlink), "40000" (tree), "160000" (submodule) */
  mode: string;
  type: TreeEntryType;
  name: string;
  sha: string;
}

export interface TagObject {
  sha: string;
  /** the object it points at, and that object's type */
  object: string;
  objectType: ObjectType;
  name: string;
  tagger: Signature | null;
  message: string;
}

export function parseSignature(text: string): Signature {
  const open = text.lastIndexOf("<");
  const close = text.lastIndexOf(">");
  const [seconds, timezone = "+0000"] = text.slice(close + 1).trim().split(" ");
  return {
    name: text.slice(0, Math.max(open, 0)).trim(),
    email: text.slice(open + 1, close),
    date: new Date(Number(seconds ?? 0) * 1000),
    timezone: /^[+-]\d{4}$/.test(timezone) ? timezone : "+0000",
  };
}

export function formatSignature(signature: Signature): string {
  const clean = (value: string) => value.replace(/[<>\n]/g, "").trim();
  return `${clean(signature.name)} <${clean(signature.email)}> ${Math.floor(signature.date.getTime() / 1000)} ${signature.timezone}`;
}

/** Headers up to the first empty line, then the message. */
function splitHeaders(data: Buffer): { headers: [string, string][]; message: string } {
  const text = data.toString("utf8");
  const end = text.indexOf("\n\n");
  const head = end === -1 ? text : text.slice(0, end);
  const headers: [string, string][] = [];
  for (const line of head.split("\n")) {
    if (line.startsWith(" ") && headers.length) {
      headers[headers.length - 1]![1] += `\n${line.slice(1)}`; // continuation (gpgsig)
      continue;
    }
    const space = line.indexOf(" ");
    headers.push(space === -1 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)]);
  }
  return { headers, message: end === -1 ? "" : text.slice(end + 2) };
}

export function parseCommit(sha: string, data: Buffer): CommitObject {
  const { headers, message } = splitHeaders(data);
  const value = (name: string) => headers.find(([key]) => key === name)?.[1] ?? "";
  return {
    sha,
    tree: value("tree"),
    parents: headers.filter(([key]) => key === "parent").map(([, parent]) => parent),
    author: parseSignature(value("author")),
    committer: parseSignature(value("committer")),
    message,
  };
}

export function parseTag(sha: string, data: Buffer): TagObject {
  const { headers, message } = splitHeaders(data);
  const value = (name: string) => headers.find(([key]) => key === name)?.[1];
  const tagger = value("tagger");
  return {
    sha,
    object: value("object") ?? "",
    objectType: (value("type") ?? "commit") as ObjectType,
    name: value("tag") ?? "",
    tagger: tagger ? parseSignature(tagger) : null,
    message,
  };
}

const typeOfMode = (mode: string): TreeEntryType => (mode === "40000" ? "tree" : mode === "160000" ? "commit" : "blob");

export function parseTree(data: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const nul = data.indexOf(0, space);
    const mode = data.toString("latin1", at, space);
    entries.push({ mode, type: typeOfMode(mode), name: data.toString("utf8", space + 1, nul), sha: data.toString("hex", nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

export interface NewCommit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

export function serializeCommit(commit: NewCommit): Buffer {
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${formatSignature(commit.author)}`, `committer ${formatSignature(commit.committer)}`);
  return Buffer.from(`${lines.join("\n")}\n\n${commit.message}`, "utf8");
}

export interface NewTag {
  object: string;
  objectType: ObjectType;
  name: string;
  tagger: Signature;
  message: string;
}

export function serializeTag(tag: NewTag): Buffer {
  const message = tag.message.endsWith("\n") ? tag.message : `${tag.message}\n`;
  return Buffer.from(`object ${tag.object}\ntype ${tag.objectType}\ntag ${tag.name}\ntagger ${formatSignature(tag.tagger)}\n\n${message}`, "utf8");
}

/** Git's tree order: by name, a subtree compared as if its name ended in "/". */
const treeSortKey = (entry: TreeEntry) => Buffer.from(entry.type === "tree" ? `${entry.name}/` : entry.name, "utf8");

export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(treeSortKey(a), treeSortKey(b)));
  return Buffer.concat(sorted.flatMap((entry) => [Buffer.from(`${entry.mode} ${entry.name}\0`, "utf8"), Buffer.from(entry.sha, "hex")]));
}

/** A commit message's first line (GitLab's `title`). */
export function commitTitle(message: string): string {
  const line = message.split("\n", 1)[0]!.replace(/\r$/, "");
  return line.trim() ? line : "";
}
