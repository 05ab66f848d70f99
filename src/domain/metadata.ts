// Instance metadata (GET /version): the GitLab version Forgeline emulates and the source revision.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { requireAuthenticated } from "./access.js";
import type { DomainContext } from "./context.js";

export interface InstanceMetadata {
  version: string;
  revision: string;
  kas: { enabled: boolean; externalUrl: string | null; version: string | null };
  enterprise: boolean;
}

const REVISION_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../REVISION");

/** As GitLab's `Gitlab.revision`: the REVISION file written at build time, else "Unknown". */
function readRevision(): string {
  try {
    return readFileSync(REVISION_FILE, "utf8").trim() || "Unknown";
  } catch {
    return "Unknown";
  }
}

const revision = readRevision();

/** Any signed-in user may read it (GitLab's `authenticate!`); no agent server (KAS) exists here. */
export function instanceMetadata(ctx: DomainContext): InstanceMetadata {
  requireAuthenticated(ctx);
  return {
    version: ctx.config.version,
    revision,
    kas: { enabled: false, externalUrl: null, version: null },
    enterprise: true,
  };
}
