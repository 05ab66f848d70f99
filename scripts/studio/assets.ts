// The Studio page's script and style sheet, made from the installed packages (nothing fetched): the
// script is scripts/studio/browser.ts bundled by esbuild with React and @prisma/studio-core, kept in
// node_modules/.cache so that only the first start (or one after an upgrade) waits for the build.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const require = createRequire(import.meta.url);
const ENTRY = fileURLToPath(new URL("./browser.ts", import.meta.url));
const REPO_ROOT = path.resolve(path.dirname(ENTRY), "../..");
const CACHE_DIR = path.join(REPO_ROOT, "node_modules", ".cache", "forgeline-studio");

/**
 * Runs before the bundle's modules. studio-core's page reports a launch to checkpoint.prisma.io unless
 * CHECKPOINT_DISABLE is set in the environment it finds: in a browser, `globalThis.__env__`. (The
 * page's Content-Security-Policy would block the request anyway; this keeps it from being tried.)
 */
const BANNER = `globalThis.__env__ = { CHECKPOINT_DISABLE: "1" };`;

export interface StudioAssets {
  script: Buffer;
  css: Buffer;
  /** the studio-core version, shown in the page title */
  version: string;
}

/** The installed version of a package, from the package.json above one of its exported files. */
function versionOf(pkg: string, exported: string): string {
  for (let dir = path.dirname(require.resolve(exported)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version: string };
    if (manifest.name === pkg) return manifest.version;
  }
  throw new Error(`cannot find the version of ${pkg}`);
}

export async function loadStudioAssets(): Promise<StudioAssets> {
  const version = versionOf("@prisma/studio-core", "@prisma/studio-core/ui");
  const css = readFileSync(require.resolve("@prisma/studio-core/ui/index.css"));
  const key = createHash("sha256")
    .update([version, versionOf("react", "react"), versionOf("react-dom", "react-dom/client"), esbuild.version, BANNER, readFileSync(ENTRY, "utf8")].join("\n"))
    .digest("hex")
    .slice(0, 16);
  const cached = path.join(CACHE_DIR, `studio-${key}.js`);
  if (existsSync(cached)) return { script: readFileSync(cached), css, version };

  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    outfile: "studio.js",
    banner: { js: BANNER },
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  const script = Buffer.from(result.outputFiles[0]!.contents);
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(`${cached}.${process.pid}`, script);
    renameSync(`${cached}.${process.pid}`, cached); // whole or absent, when two Studios start at once
  } catch {
    // read-only install: build again next time
  }
  return { script, css, version };
}
