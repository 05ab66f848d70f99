// Restores an archive of `npm run backup` into an empty instance:
//
//   npm run restore -- FILE
//
// The target is what the server reads: DATABASE_URL (or $DATA_DIR/forgeline.db), REPOSITORIES_DIR,
// UPLOADS_DIR and DATA_DIR. In this order, before anything is written:
//   - the archive is unpacked into a temporary folder and every file checked against the manifest
//     (a truncated or altered archive, or one without manifest, is refused: exit 1);
//   - a SQLite backup goes only into SQLite, a PostgreSQL one only into PostgreSQL (exit 1; to move
//     between them restore into the same kind, then `npm run db:copy`);
//   - the target must be empty: no rows in the database, nothing in the repositories or uploads
//     folder, no other encryption key in DATA_DIR (exit 2).
// Then the repositories, uploaded files and key (when the archive has it) are written, and the
// database last (SQLite: the file copied into place; PostgreSQL: pg_restore in one transaction);
// when that fails, the folders written are emptied again.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig, type Config } from "../src/config.js";
import { ArchiveError, formatBytes, unpackAndVerify, type Manifest } from "../src/backup/archive.js";
import { kindOf, restoreDatabase, tableWithRows } from "../src/backup/database.js";
import { emptyFolder, hasContent, restoreRepositories } from "../src/backup/repositories.js";
import { KEY_FILE } from "../src/domain/shared/encryption.js";

/** The target is not empty: nothing was written (exit code 2). */
class TargetNotEmpty extends Error {}

function archiveArgument(): string {
  const files = process.argv.slice(2).filter((arg) => arg !== "--");
  if (files.length !== 1 || files[0].startsWith("-")) throw new ArchiveError("usage: npm run restore -- FILE (an archive written by npm run backup)");
  return path.resolve(files[0]);
}

/** The migrations this version knows for the database kind (a newer backup's would be unknown). */
function knownMigrations(config: Config): Set<string> {
  const folder = kindOf(config.databaseUrl) === "sqlite" ? "prisma/migrations" : "prisma/postgresql/migrations";
  const root = new URL("../", import.meta.url).pathname;
  return new Set(readdirSync(path.join(root, folder), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name));
}

function refuseOtherKind(manifest: Manifest, config: Config): void {
  const target = kindOf(config.databaseUrl);
  if (manifest.database.kind === target) return;
  throw new ArchiveError(`the archive holds a ${manifest.database.kind} database and DATABASE_URL names a ${target} one: restore into ${manifest.database.kind}, then move it with npm run db:copy`);
}

function refuseNewerSchema(manifest: Manifest, config: Config): void {
  const latest = manifest.database.latestMigration;
  if (latest && !knownMigrations(config).has(latest)) throw new ArchiveError(`the archive's database has migration ${latest}, unknown to this Forgeline version: restore it with the version that wrote it (${manifest.forgeline.version}, ${manifest.forgeline.revision})`);
}

async function refuseNonEmptyTarget(manifest: Manifest, config: Config): Promise<void> {
  const table = await tableWithRows(config.databaseUrl);
  if (table) throw new TargetNotEmpty(`the target database is not empty (table ${table} has rows): restore only into an empty database`);
  if (hasContent(config.repositoriesDir)) throw new TargetNotEmpty(`the repositories folder ${config.repositoriesDir} is not empty: restore only into an empty one`);
  if (hasContent(config.uploadsDir)) throw new TargetNotEmpty(`the uploads folder ${config.uploadsDir} is not empty: restore only into an empty one`);
  const keyFile = path.join(config.dataDir, KEY_FILE);
  if (manifest.secretsIncluded && existsSync(keyFile)) throw new TargetNotEmpty(`${keyFile} exists: restore only into an empty data directory (the archive brings its own key)`);
}

async function main() {
  const archive = archiveArgument();
  const config = loadConfig();
  const unpacked = mkdtempSync(path.join(os.tmpdir(), "forgeline-restore-"));
  try {
    const manifest = await unpackAndVerify(archive, unpacked);
    refuseOtherKind(manifest, config);
    refuseNewerSchema(manifest, config);
    await refuseNonEmptyTarget(manifest, config);
    await restoreAll(manifest, unpacked, config);
    report(manifest, archive, config);
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
}

async function restoreAll(manifest: Manifest, unpacked: string, config: Config): Promise<void> {
  const keyFile = path.join(config.dataDir, KEY_FILE);
  try {
    mkdirSync(config.repositoriesDir, { recursive: true });
    await restoreRepositories(path.join(unpacked, "repositories"), manifest.repositories, config.repositoriesDir);
    if (existsSync(path.join(unpacked, "uploads"))) await cp(path.join(unpacked, "uploads"), config.uploadsDir, { recursive: true });
    if (manifest.secretsIncluded) {
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(keyFile, readFileSync(path.join(unpacked, "secrets", KEY_FILE)), { mode: 0o600, flag: "wx" });
    }
    mkdirSync(config.dataDir, { recursive: true });
    await restoreDatabase(path.join(unpacked, manifest.database.file), config.databaseUrl);
  } catch (error) {
    // the target was empty: leave it so, for another try
    emptyFolder(config.repositoriesDir);
    emptyFolder(config.uploadsDir);
    if (manifest.secretsIncluded) rmSync(keyFile, { force: true });
    throw error;
  }
}

function report(manifest: Manifest, archive: string, config: Config) {
  const size = (prefix: string) => formatBytes(manifest.entries.filter((entry) => entry.path.startsWith(prefix)).reduce((sum, entry) => sum + entry.size, 0));
  const uploads = manifest.entries.filter((entry) => entry.path.startsWith("uploads/")).length;
  console.log(`archive: ${archive}, written ${manifest.createdAt} by Forgeline ${manifest.forgeline.version} (${manifest.forgeline.revision}), checksums verified`);
  console.log(`database: ${manifest.database.kind}, ${size("database/")}, latest migration ${manifest.database.latestMigration ?? "none"}`);
  console.log(`repositories: ${manifest.repositories.length} into ${config.repositoriesDir} (${size("repositories/")})`);
  console.log(`uploaded files: ${uploads} into ${config.uploadsDir}`);
  console.log(manifest.secretsIncluded
    ? `secrets: the encryption key into ${path.join(config.dataDir, KEY_FILE)}${keyNote(config)}`
    : "secrets: not in the archive: start the server with the instance's WEBHOOK_ENCRYPTION_KEY (or put its encryption.key into DATA_DIR)");
  console.log("restored: start the server on these settings");
}

/** The server takes WEBHOOK_ENCRYPTION_KEY over the file: say so when they differ. */
function keyNote(config: Config): string {
  if (!config.webhookEncryptionKey) return "";
  const restored = readFileSync(path.join(config.dataDir, KEY_FILE), "utf8").trim();
  return restored === config.webhookEncryptionKey.bytes().toString("hex")
    ? " (the same as WEBHOOK_ENCRYPTION_KEY)"
    : " (WEBHOOK_ENCRYPTION_KEY is set to another key and wins over it: unset it or set it to the restored key)";
}

main().catch((error) => {
  const known = error instanceof ArchiveError || error instanceof ConfigError || error instanceof TargetNotEmpty;
  const message = known ? error.message : String(error?.stderr?.trim?.() || error?.message || error).split("\n")[0];
  console.error(`restore: ${message}`);
  process.exit(error instanceof TargetNotEmpty ? 2 : 1);
});
