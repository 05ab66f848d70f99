// The server drives the `git` program; at start it must be there and recent enough.
import { gitText } from "./command.js";

/**
 * 2.38: `merge-tree --write-tree` (merges and conflict checks), `cat-file --batch-command` (2.36)
 * and protocol v2 on the server side.
 */
export const MINIMUM_GIT_VERSION = [2, 38, 0] as const;

export class GitMissingError extends Error {}

export function parseGitVersion(text: string): number[] | null {
  const match = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}

const atLeast = (version: number[], minimum: readonly number[]) => {
  for (let i = 0; i < minimum.length; i++) {
    if (version[i]! !== minimum[i]!) return version[i]! > minimum[i]!;
  }
  return true;
};

/** The installed git's version ("2.39.5"); throws GitMissingError with what to do about it. */
export async function checkGitVersion(): Promise<string> {
  const wanted = MINIMUM_GIT_VERSION.join(".");
  let text: string;
  try {
    text = await gitText(null, ["--version"]);
  } catch {
    throw new GitMissingError(`git ${wanted} or later is required and was not found on PATH (Debian: apt-get install git)`);
  }
  const version = parseGitVersion(text);
  if (!version || !atLeast(version, MINIMUM_GIT_VERSION)) {
    throw new GitMissingError(`git ${wanted} or later is required; found "${text}"`);
  }
  return version.join(".");
}
