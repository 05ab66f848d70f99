// Writes one archive of a Forgeline instance, while it runs:
//
//   npm run backup -- [--output FILE] [--include-secrets]
//
// It reads the settings the server reads (DATABASE_URL, DATA_DIR, REPOSITORIES_DIR, UPLOADS_DIR,
// WEBHOOK_ENCRYPTION_KEY) and writes FILE (default $DATA_DIR/backups/forgeline-<timestamp>.tar;
// gzip when FILE ends in .gz or .tgz), packed by the system's GNU tar:
//   manifest.json              format, Forgeline version and revision, database kind, created_at,
//                              latest applied migration, each file's path, size and SHA-256
//   database/forgeline.db      SQLite's online backup, or
//   database/forgeline.dump    pg_dump's custom format (one snapshot)
//   repositories/<path>/       each repository's own files (config, HEAD, ...) and
//   repositories/<path>.bundle its objects and refs (see src/backup/repositories.ts)
//   uploads/                   files under UPLOADS_DIR (avatars from before StoredFile), if any
//   secrets/encryption.key     only with --include-secrets
// The database is taken first, the repositories after: a repository may hold commits newer than
// the database, never lack one the database names.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig, ConfigError, type Config } from "../src/config.js";
import { ArchiveError, entriesOf, FORMAT_VERSION, formatBytes, isGzipName, pack, writeManifest, type Manifest } from "../src/backup/archive.js";
import { databaseFileName, dumpDatabase, kindOf } from "../src/backup/database.js";
import { backupRepositories, hasContent } from "../src/backup/repositories.js";
import { sourceRevision } from "../src/domain/instance/metadata.js";
import { KEY_FILE } from "../src/domain/shared/encryption.js";

const packageVersion = (): string => JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

function options(config: Config): { output: string; includeSecrets: boolean } {
  const { values } = parseArgs({ options: { output: { type: "string" }, "include-secrets": { type: "boolean", default: false } } });
  const timestamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  const output = path.resolve(values.output ?? path.join(config.dataDir, "backups", `forgeline-${timestamp}.tar`));
  return { output, includeSecrets: values["include-secrets"]! };
}

/** The key the server uses, as 64 hex digits: the setting, else the generated file; null when neither exists. */
function encryptionKeyText(config: Config): string | null {
  if (config.webhookEncryptionKey) return config.webhookEncryptionKey.bytes().toString("hex");
  try {
    return readFileSync(path.join(config.dataDir, KEY_FILE), "utf8").trim();
  } catch {
    return null;
  }
}

async function main() {
  const config = loadConfig();
  const { output, includeSecrets } = options(config);
  mkdirSync(path.dirname(output), { recursive: true });
  const staging = mkdtempSync(`${output}.staging-`);
  try {
    const manifest = await stage(config, staging, includeSecrets);
    const partial = `${output}.partial`;
    await pack(staging, partial, isGzipName(output)); // named by the final name, not the partial one
    renameSync(partial, output);
    report(manifest, output);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function stage(config: Config, staging: string, includeSecrets: boolean): Promise<Manifest> {
  const kind = kindOf(config.databaseUrl);
  const databaseFile = `database/${databaseFileName(kind)}`;
  mkdirSync(path.join(staging, "database"));
  const latestMigration = await dumpDatabase(config.databaseUrl, path.join(staging, databaseFile));
  const { repositories } = await backupRepositories(config.repositoriesDir, path.join(staging, "repositories"));
  if (hasContent(config.uploadsDir)) await cp(config.uploadsDir, path.join(staging, "uploads"), { recursive: true });
  const key = includeSecrets ? encryptionKeyText(config) : null;
  if (includeSecrets && !key) throw new ArchiveError("--include-secrets: there is no key (neither WEBHOOK_ENCRYPTION_KEY nor $DATA_DIR/encryption.key)");
  if (key) {
    mkdirSync(path.join(staging, "secrets"));
    writeFileSync(path.join(staging, "secrets", KEY_FILE), `${key}\n`, { mode: 0o600 });
  }
  const manifest: Manifest = {
    format: FORMAT_VERSION,
    forgeline: { version: packageVersion(), revision: config.revision ?? sourceRevision() },
    createdAt: new Date().toISOString(),
    database: { kind, file: databaseFile, latestMigration },
    repositories,
    secretsIncluded: key !== null,
    entries: await entriesOf(staging),
  };
  writeManifest(staging, manifest);
  return manifest;
}

function report(manifest: Manifest, output: string) {
  const total = (prefix: string) => manifest.entries.filter((entry) => entry.path.startsWith(prefix)).reduce((sum, entry) => sum + entry.size, 0);
  const uploads = manifest.entries.filter((entry) => entry.path.startsWith("uploads/")).length;
  console.log(`database: ${manifest.database.kind}, ${formatBytes(total("database/"))}, latest migration ${manifest.database.latestMigration ?? "none"}`);
  console.log(`repositories: ${manifest.repositories.length}, ${formatBytes(total("repositories/"))}`);
  console.log(`uploaded files: ${uploads}, ${formatBytes(total("uploads/"))}`);
  console.log(manifest.secretsIncluded
    ? "secrets: the encryption key is in the archive: keep the archive as safe as the key itself"
    : "secrets: not included: keep WEBHOOK_ENCRYPTION_KEY or $DATA_DIR/encryption.key apart (--include-secrets adds it)");
  console.log(`wrote ${output} (${formatBytes(statSync(output).size)}, ${manifest.entries.length} files)`);
}

main().catch((error) => {
  const known = error instanceof ArchiveError || error instanceof ConfigError;
  const message = known ? error.message : String(error?.stderr?.trim?.() || error?.message || error).split("\n")[0];
  console.error(`backup: ${message}`);
  process.exit(1);
});
