// Runs the python-gitlab scripts of test/e2e/python with Debian's python3 against a running server.
// Each script reads FORGELINE_URL and FORGELINE_TOKEN (plus its own variables) and prints one JSON
// document on stdout.
import { execFile, spawnSync } from "node:child_process";
import path from "node:path";
import { REPO_ROOT, type RunningServer } from "./server.js";

export const PYTHON = "/usr/bin/python3";
const SCRIPTS = path.join(REPO_ROOT, "test", "e2e", "python");

/** Why python-gitlab cannot run here, or null when it can. */
export function pythonGitlabUnavailable(): string | null {
  const unavailable = probePythonGitlab();
  // CI must run them (.ci/run installs python3-gitlab): there a missing client fails the file instead of skipping it
  if (unavailable && process.env.CI) throw new Error(`The python-gitlab tests cannot run under CI: ${unavailable}`);
  return unavailable;
}

function probePythonGitlab(): string | null {
  const probe = spawnSync(PYTHON, ["-c", "import gitlab; print(gitlab.__version__)"], { encoding: "utf8" });
  if (probe.error) return `${PYTHON} cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `python-gitlab is not installed for ${PYTHON} (apt-get install python3-gitlab): ${probe.stderr.trim()}`;
  return null;
}

export async function runPython<T = any>(script: string, server: RunningServer, env: Record<string, string> = {}, token = server.rootToken): Promise<T> {
  const scriptEnv = { ...process.env, FORGELINE_URL: server.url, FORGELINE_TOKEN: token ?? "", PYTHONDONTWRITEBYTECODE: "1", ...env };
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(PYTHON, [path.join(SCRIPTS, script)], { env: scriptEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} failed (${error.message}):\n${stderr}${stdout}`));
      else resolve({ stdout, stderr });
    });
  });
  try {
    return JSON.parse(stdout) as T;
  } catch {
    throw new Error(`${script} did not print JSON:\n${stdout}\n${stderr}`);
  }
}
