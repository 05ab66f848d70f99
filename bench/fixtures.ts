// The benchmark's data, made through Forgeline's own REST API (and, for the big issue lists, the
// SQL seed script): a public group and project, one issue with 25 reactions by 25 users with
// their own tokens, a merge request under an approval rule, a group hook to a local receiver,
// and two projects with 1,000 and (by default) 1,000,000 issues.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import { promisify } from "node:util";

const EMOJI = ["thumbsup", "thumbsdown", "heart", "tada", "smile", "rocket", "eyes", "fire", "star", "clap", "wave", "pray", "muscle",
  "sunglasses", "thinking", "joy", "sob", "angry", "skull", "ghost", "alien", "robot", "cat", "dog", "100"];

export interface Fixtures {
  rootToken: string;
  /** a plain user's token: every GET route is read with it */
  readerToken: string;
  tokens: string[];
  projectId: number;
  issueIid: number;
  mergeRequestIid: number;
  smallProjectId: number;
  largeProjectId: number;
  smallIssues: number;
  largeIssues: number;
}

export interface HookReceiver {
  url: string;
  received(): number;
  close(): void;
}

/** A loopback webhook receiver answering 200 and counting deliveries. */
export async function startReceiver(): Promise<HookReceiver> {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received++;
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/hook`, received: () => received, close: () => server.close() };
}

function client(base: string) {
  return async function call(token: string, method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${base}/api/v4${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Where the server keeps its data: its data folder, and DATABASE_URL ("" for the SQLite file there). */
export interface ServerData {
  dataDir: string;
  databaseUrl: string;
}

export async function createFixtures(
  base: string, rootToken: string, data: ServerData, hookUrl: string, sizes: { small: number; large: number },
): Promise<Fixtures> {
  const call = client(base);
  const root = (method: string, path: string, body?: unknown) => call(rootToken, method, path, body);
  const group = await root("POST", "/groups", { name: "Bench", path: "bench", visibility: "public" });
  const project = await root("POST", "/projects", { name: "Awards", path: "awards", namespace_id: group.id, visibility: "public" });
  const p = `/projects/${project.id}`;
  const issue = await root("POST", `${p}/issues`, { title: "An issue with reactions" });
  const tokens: string[] = [];
  const userIds: number[] = [];
  for (const [i, name] of EMOJI.entries()) {
    const user = await root("POST", "/users", { username: `reader${i}`, name: `Reader ${i}`, email: `reader${i}@bench.test`, password: "bench-password-123" });
    const token = await root("POST", `/users/${user.id}/personal_access_tokens`, { name: "bench", scopes: ["api"] });
    tokens.push(token.token);
    userIds.push(user.id);
    await call(token.token, "POST", `${p}/issues/${issue.iid}/award_emoji`, { name });
  }
  await root("POST", `${p}/repository/commits`, {
    branch: "main", commit_message: "First commit", actions: [{ action: "create", file_path: "README.md", content: "Awards" }],
  });
  await root("POST", `${p}/repository/branches`, { branch: "feature", ref: "main" });
  await root("POST", `${p}/repository/commits`, {
    branch: "feature", commit_message: "A change", actions: [{ action: "create", file_path: "change.txt", content: "x" }],
  });
  const mr = await root("POST", `${p}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "A change" });
  // two reviewers (developers of the project), one of whom has approved
  for (const id of userIds.slice(1, 3)) await root("POST", `${p}/members`, { user_id: id, access_level: 30 });
  await root("POST", `${p}/approval_rules`, { name: "Reviewers", approvals_required: 2, user_ids: userIds.slice(1, 3) });
  await call(tokens[1]!, "POST", `${p}/merge_requests/${mr.iid}/approve`);
  await root("POST", `/groups/${group.id}/hooks`, { url: hookUrl, issues_events: true });

  const small = await root("POST", "/projects", { name: "Small", path: "small", namespace_id: group.id, visibility: "public" });
  const large = await root("POST", "/projects", { name: "Large", path: "large", namespace_id: group.id, visibility: "public" });
  await seedIssues(data, small.id, sizes.small);
  await seedIssues(data, large.id, sizes.large);
  return {
    rootToken, readerToken: tokens[0]!, tokens, projectId: project.id, issueIid: issue.iid, mergeRequestIid: mr.iid,
    smallProjectId: small.id, largeProjectId: large.id, smallIssues: sizes.small, largeIssues: sizes.large,
  };
}

async function seedIssues({ dataDir, databaseUrl }: ServerData, projectId: number, count: number) {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/seed-issues.ts", String(projectId), String(count)], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
  });
  process.stdout.write(`  ${stdout}`);
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
