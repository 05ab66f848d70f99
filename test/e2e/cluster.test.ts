// WEB_CONCURRENCY: a primary that migrates and bootstraps once and forks web processes sharing the
// port; a web process that dies is replaced, SIGTERM lets requests in flight finish, and a change
// made through one web process is seen by the others at once.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, commitFile, git, gitOk, workDir } from "./helpers/git.js";
import { processExists, waitFor, webProcesses } from "./helpers/processes.js";
import { E2E_ROOT_TOKEN, runUntilExit, startServer, type RunningServer } from "./helpers/server.js";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ env: { WEB_CONCURRENCY: "2" } });
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

async function call(method: string, path: string, token: string | undefined = E2E_ROOT_TOKEN, body?: unknown) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers["PRIVATE-TOKEN"] = token;
  // a fresh connection per call, so that calls are spread over the web processes
  headers.Connection = "close";
  const response = await fetch(server.apiUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe("WEB_CONCURRENCY=2", () => {
  it("takes every push, whichever web process runs it (each hears its own git hooks)", async () => {
    const project = (await call("POST", "/projects", E2E_ROOT_TOKEN, { name: `cluster-push-${Date.now()}`, initialize_with_readme: true })).body;
    const dir = `${workDir()}/clone`;
    await gitOk(["clone", "-q", cloneUrl(server, project.path_with_namespace, { user: "root", password: E2E_ROOT_TOKEN }), dir]);
    for (let i = 0; i < 10; i++) {
      const sha = await commitFile(dir, `f${i}.txt`, `${i}\n`);
      const push = await git(["-c", "http.extraHeader=Connection: close", "push", "origin", "main"], { cwd: dir });
      expect(push.code, push.stderr).toBe(0);
      expect(push.stderr).not.toContain("GitLab:");
      expect((await call("GET", `/projects/${project.id}/repository/branches/main`)).body.commit.id).toBe(sha);
    }
  }, 60_000);

  it("forks two web processes and bootstraps root once", async () => {
    expect(await waitFor(() => (webProcesses(server.pid).length === 2 ? true : undefined))).toBe(true);
    expect(server.output()).toContain("2 web processes");
    expect(server.output().match(/Created administrator 'root'/g)).toHaveLength(1);
    expect((await call("GET", "/user")).body.username).toBe("root");
  });

  it("a token revoked through one web process is refused by every web process at once", async () => {
    const user = await call("POST", "/users", E2E_ROOT_TOKEN, { username: "clustered", name: "C", email: "c@example.com", password: "password-123456" });
    const token = await call("POST", `/users/${user.body.id}/personal_access_tokens`, E2E_ROOT_TOKEN, { name: "t", scopes: ["api"] });
    // warm both processes' caches with the token (connections alternate between them)
    for (let i = 0; i < 6; i++) expect((await call("GET", "/user", token.body.token)).status).toBe(200);
    expect((await call("DELETE", `/personal_access_tokens/${token.body.id}`, token.body.token)).status).toBe(204);
    for (let i = 0; i < 6; i++) expect((await call("GET", "/user", token.body.token)).status).toBe(401);
  });

  it("writes from both web processes at once all succeed (transactions wait for the write lock)", async () => {
    const project = await call("POST", "/projects", E2E_ROOT_TOKEN, { name: "Busy", path: "busy" });
    expect(project.status).toBe(201);
    const issuesPath = `/projects/${project.body.id}/issues`;
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => call("POST", issuesPath, E2E_ROOT_TOKEN, { title: `parallel ${i}` })));
    expect(created.map((answer) => answer.status)).toEqual(created.map(() => 201));
    const iids = created.map((answer) => answer.body.iid as number).sort((a, b) => a - b);
    expect(iids).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // award emoji: each write reads the issue and its awards first, then inserts
    const awards = await Promise.all(
      ["thumbsup", "thumbsdown", "smile", "tada", "rocket", "eyes", "heart", "fire"].flatMap((name) =>
        iids.slice(0, 5).map((iid) => call("POST", `${issuesPath}/${iid}/award_emoji`, E2E_ROOT_TOKEN, { name })),
      ),
    );
    expect(awards.map((answer) => answer.status)).toEqual(awards.map(() => 201));
    const listed = await call("GET", `${issuesPath}/1/award_emoji?per_page=100`);
    expect(listed.body.map((award: { name: string }) => award.name).sort()).toEqual(["eyes", "fire", "heart", "rocket", "smile", "tada", "thumbsdown", "thumbsup"]);
  });

  it("replaces a web process that dies and keeps answering meanwhile", async () => {
    const [victim, survivor] = webProcesses(server.pid);
    process.kill(victim, "SIGKILL");
    for (let i = 0; i < 5; i++) expect((await call("GET", "/user")).status).toBe(200);
    const replaced = await waitFor(() => {
      const now = webProcesses(server.pid);
      return now.length === 2 && !now.includes(victim) ? now : undefined;
    });
    expect(replaced).toContain(survivor);
    expect(server.output()).toMatch(new RegExp(`web process ${victim} exited \\(SIGKILL\\)`));
    for (let i = 0; i < 5; i++) expect((await call("GET", "/user")).status).toBe(200);
  });
});

describe("SIGTERM", () => {
  it("answers a request in flight, then stops every process", async () => {
    const project = await call("POST", "/projects", E2E_ROOT_TOKEN, { name: "Drained", path: "drained" });
    expect(project.status).toBe(201);
    const children = webProcesses(server.pid);
    const body = JSON.stringify({ title: "sent while the server stops" });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${server.apiUrl}/projects/${project.body.id}/issues`, {
        method: "POST",
        // a web process that parsed the headers answers 100 Continue: the request is in its hands
        headers: { "PRIVATE-TOKEN": E2E_ROOT_TOKEN, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Expect: "100-continue" },
      });
      req.on("response", (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, text }));
      });
      req.on("error", reject);
      req.on("continue", () => {
        req.write(body.slice(0, 10)); // the request is in flight: headers and part of its body sent
        process.kill(server.pid, "SIGTERM"); // the primary only: it tells the web processes to drain
        setTimeout(() => req.end(body.slice(10)), 500); // the rest comes while they drain
      });
      req.flushHeaders();
    });
    const { status, text } = await answer;
    expect(status).toBe(201);
    expect(JSON.parse(text).title).toBe("sent while the server stops");
    const code = await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve(`still running:\n${server.output().slice(-3000)}`), 20_000))]);
    expect(code).toBe(0); // the SIGTERM above, and no other signal
    await waitFor(() => (children.every((pid) => !processExists(pid)) ? true : undefined));
  });
});

describe("settings", () => {
  it.each(["0", "65", "two"])("WEB_CONCURRENCY=%s stops the start with exit code 2", async (value) => {
    const run = await runUntilExit({ env: { WEB_CONCURRENCY: value } });
    expect(run.code).toBe(2);
    expect(run.output).toContain(`Invalid setting: WEB_CONCURRENCY must be an integer from 1 to 64, got "${value}"`);
  });
});
