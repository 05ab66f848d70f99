// Token secrets: random values shown once, stored only as SHA-256 digests.
import { hash, randomBytes } from "node:crypto";

export function digest(secret: string): string {
  return hash("sha256", secret);
}

/** A new token secret in GitLab's shape: prefix plus 20+ url-safe random characters. */
export function newTokenSecret(prefix = "glpat-"): string {
  return prefix + randomBytes(24).toString("base64url");
}
