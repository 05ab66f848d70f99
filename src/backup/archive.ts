// The backup archive: a staging folder of plain files packed by the system's GNU tar, with a
// manifest (manifest.json, the archive's first member) giving each file's size and SHA-256. A
// restore unpacks it into a folder of its own and checks every file against the manifest before
// it writes anything where the server reads.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

export const FORMAT_VERSION = 1;
export const MANIFEST = "manifest.json";

export type DatabaseKind = "sqlite" | "postgresql";

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: number;
  forgeline: { version: string; revision: string };
  createdAt: string;
  database: { kind: DatabaseKind; file: string; latestMigration: string | null };
  /** the repositories' paths under REPOSITORIES_DIR, each stored as a folder of its files and a bundle */
  repositories: string[];
  secretsIncluded: boolean;
  entries: ManifestEntry[];
}

/** A damaged or foreign archive, or one this version cannot restore. */
export class ArchiveError extends Error {}

/** Every regular file under `root`, as paths relative to it with "/" separators. */
export function filesUnder(root: string, relative = ""): string[] {
  const folder = path.join(root, relative);
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return filesUnder(root, child);
    return entry.isFile() ? [child] : [];
  });
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function entriesOf(staging: string): Promise<ManifestEntry[]> {
  const entries: ManifestEntry[] = [];
  for (const file of filesUnder(staging).filter((name) => name !== MANIFEST).sort()) {
    const full = path.join(staging, file);
    entries.push({ path: file, size: statSync(full).size, sha256: await sha256Of(full) });
  }
  return entries;
}

/** An archive named *.gz or *.tgz is compressed. */
export const isGzipName = (file: string) => /\.(tgz|gz)$/.test(file);

/** Packs `staging` into `archive`, the manifest first. */
export async function pack(staging: string, archive: string, gzip: boolean): Promise<void> {
  const members = readdirSync(staging).filter((name) => name !== MANIFEST).sort();
  const flags = gzip ? "-czf" : "-cf";
  await promisify(execFile)("tar", [flags, archive, "-C", staging, MANIFEST, ...members]);
}

/** Unpacks `archive` into the empty folder `into` and checks it; throws ArchiveError when damaged. */
export async function unpackAndVerify(archive: string, into: string): Promise<Manifest> {
  if (!existsSync(archive)) throw new ArchiveError(`${archive} does not exist`);
  try {
    // GNU tar detects the compression itself and refuses members that climb out of `into`
    await promisify(execFile)("tar", ["-xf", archive, "-C", into, "--no-same-owner"]);
  } catch (error) {
    const reason = String((error as { stderr?: string }).stderr ?? error).trim().split("\n")[0];
    throw new ArchiveError(`${archive} is damaged or not a tar archive (${reason})`);
  }
  const manifest = readManifest(into);
  await verifyEntries(into, manifest.entries);
  return manifest;
}

function readManifest(folder: string): Manifest {
  const file = path.join(folder, MANIFEST);
  if (!existsSync(file)) throw new ArchiveError(`the archive has no ${MANIFEST}: not a Forgeline backup, or truncated`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new ArchiveError(`the archive's ${MANIFEST} is not valid JSON: the archive is damaged`);
  }
  if (manifest.format !== FORMAT_VERSION) throw new ArchiveError(`the archive's format ${manifest.format} is not ${FORMAT_VERSION}: restore it with the Forgeline version that wrote it`);
  return manifest;
}

async function verifyEntries(folder: string, entries: ManifestEntry[]): Promise<void> {
  const listed = new Set(entries.map((entry) => entry.path));
  const extra = filesUnder(folder).filter((name) => name !== MANIFEST && !listed.has(name));
  if (extra.length) throw new ArchiveError(`the archive holds files its manifest does not list (${extra[0]}): the archive is damaged`);
  for (const entry of entries) {
    const file = path.join(folder, entry.path);
    if (!existsSync(file)) throw new ArchiveError(`${entry.path} is missing from the archive: the archive is truncated or damaged`);
    if (statSync(file).size !== entry.size || (await sha256Of(file)) !== entry.sha256) {
      throw new ArchiveError(`${entry.path} does not match its checksum in the manifest: the archive is damaged`);
    }
  }
}

export function writeManifest(staging: string, manifest: Manifest): void {
  writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
