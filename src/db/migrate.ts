// Applies pending migrations with the Prisma CLI (`migrate deploy`, WebAssembly schema engine).
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const prismaBin = path.join(root, "node_modules", ".bin", "prisma");

export async function applyMigrations(databaseUrl: string): Promise<void> {
  if (databaseUrl.startsWith("file:")) {
    mkdirSync(path.dirname(path.resolve(databaseUrl.slice("file:".length))), { recursive: true });
  }
  try {
    await promisify(execFile)(prismaBin, ["migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
  } catch (error: any) {
    throw new Error(`database migration failed: ${error.stderr || error.stdout || error.message}`);
  }
}
