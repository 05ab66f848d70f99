// Instance metadata (GET /version, /metadata): the GitLab version Forgeline emulates and the
// revision the server was built from.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";

export interface InstanceMetadata {
  version: string;
  revision: string;
  kas: { enabled: boolean; externalUrl: string | null; version: string | null };
  enterprise: boolean;
}

const SOURCE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * As GitLab's `Gitlab.revision`: the REVISION file written at build time, else the checkout's
 * HEAD as `git log --pretty=format:%h --abbrev=11 -n 1` prints it (11 hex digits, more when
 * needed to be unique), else "Unknown".
 */
export function sourceRevision(root = SOURCE_ROOT): string {
  try {
    const written = readFileSync(path.join(root, "REVISION"), "utf8").trim();
    if (written) return written;
  } catch {
    /* no REVISION file: ask git */
  }
  try {
    const head = execFileSync("git", ["log", "--pretty=format:%h", "--abbrev=11", "-n", "1"], {
      cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000,
    }).trim();
    return head || "Unknown";
  } catch {
    return "Unknown";
  }
}

let checkoutRevision: string | undefined;

/** FORGELINE_REVISION when set, else the source's revision (read once per process). */
export function serverRevision(config: DomainContext["config"]): string {
  return config.revision ?? (checkoutRevision ??= sourceRevision());
}

/** Any signed-in user may read it (GitLab's `authenticate!`); no agent server (KAS) exists here. */
export function instanceMetadata(ctx: DomainContext): InstanceMetadata {
  requireAuthenticated(ctx);
  return {
    version: ctx.config.version,
    revision: serverRevision(ctx.config),
    kas: { enabled: false, externalUrl: null, version: null },
    enterprise: true,
  };
}
