// Prisma Studio (`npm run studio`) in a real browser: Debian's chromium, headless, driven by
// playwright-core. The real server migrates a database and gets data through the REST API (a
// project, a group with a webhook that has a secret token); then Studio runs on that same database
// (SQLite, or PostgreSQL in the FORGELINE_TEST_DATABASE=postgresql leg) and must:
// - listen on 127.0.0.1 only, and refuse other Host names, other origins and non-JSON posts;
// - show every model of prisma/schema.prisma, the rows of User (root) and Project (the project);
// - show secrets only as digests (AccessToken) or ciphertext (WebHook): no clear token anywhere
//   in the page or in any answer of the Studio server;
// - make no request outside its own origin (offline), and raise no page error.
// Screenshots go to test-artifacts/ (ignored by git). Without /usr/bin/chromium the file is skipped,
// except in CI (CI set), where .ci/run installs it and its absence is a failure.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgresql } from "../helpers/test-database.js";
import { uniqueName } from "./helpers/fixtures.js";
import { restClient } from "./helpers/rest.js";
import { E2E_ROOT_TOKEN, freePort, REPO_ROOT, startServer, type RunningServer } from "./helpers/server.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");
const STUDIO_START_TIMEOUT_MS = 120_000; // the first start bundles the page (a few seconds, then cached)
const database = onPostgresql ? "postgresql" : "sqlite";

const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (apt-get install chromium)`;
if (missing) console.warn(`Skipping the Prisma Studio browser test: ${missing}`);
const title = missing ? `Prisma Studio (SKIPPED: ${missing})` : `Prisma Studio on ${database}`;

// CI must run it: there the missing browser is a failed test, not a skipped file
if (missing && process.env.CI) {
  it("has a browser (.ci/run installs Debian's chromium)", () => {
    expect.fail(missing);
  });
}

/** The models of prisma/schema.prisma: the tables Studio must list. */
const MODELS = [...readFileSync(path.join(REPO_ROOT, "prisma", "schema.prisma"), "utf8").matchAll(/^model (\w+) \{/gm)].map((match) => match[1]!);

interface RunningStudio {
  child: ChildProcess;
  port: number;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** `npm run studio -- --port <port>` on the server's database, as a user starts it. */
async function startStudio(server: RunningServer, port: number): Promise<RunningStudio> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir };
  delete env.NODE_OPTIONS;
  const child = spawn("npm", ["run", "--silent", "studio", "--", "--port", String(port)], { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (chunk) => (text += chunk));
  child.stderr!.on("data", (chunk) => (text += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, "SIGTERM"); // the group: npm, its shell and node
    } catch {
      return;
    }
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + STUDIO_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const url = /is running at (http:\/\/\S+)/.exec(text)?.[1];
    if (url) return { child, port, url, output: () => text, stop };
    if (child.exitCode !== null) throw new Error(`npm run studio exited with ${child.exitCode}:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`npm run studio did not start in ${STUDIO_START_TIMEOUT_MS} ms:\n${text}`);
}

/** Connects to host:port; resolves to the error code, or "connected". */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve("timeout");
    });
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** A raw request (fetch cannot set Host). */
function rawRequest(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path ?? "/", headers: options.headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    });
    request.once("error", reject);
    request.end(options.body);
  });
}

describe.skipIf(missing !== null)(title, () => {
  const HOOK_TOKEN = `hook-secret-${process.pid}-0123456789`;
  const HOOK_URL = `http://127.0.0.1:9/hooks/secret-path-${process.pid}`;
  const projectName = uniqueName("studio_project");
  let server: RunningServer;
  let studio: RunningStudio;
  let browser: Browser;
  let page: Page;
  /** every answer of the Studio server's /bff endpoint, and every request the page made elsewhere */
  const bffAnswers: string[] = [];
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
    const root = restClient(server);
    expect((await root.post("/projects", { name: projectName })).status).toBe(201);
    const group = await root.post("/groups", { name: uniqueName("studio_group"), path: uniqueName("studio-group").replace(/_/g, "-") });
    expect(group.status).toBe(201);
    const hook = await root.post(`/groups/${group.body.id}/hooks`, { url: HOOK_URL, token: HOOK_TOKEN, push_events: true });
    expect(hook.status).toBe(201);

    studio = await startStudio(server, await freePort());
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    // wide: the grid renders only the columns in view
    page = await browser.newPage({ viewport: { width: 3200, height: 900 } });
    const origin = new URL(studio.url).origin;
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== origin && !request.url().startsWith("data:") && !request.url().startsWith("blob:")) foreignRequests.push(request.url());
    });
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/bff") void response.text().then((text) => bffAnswers.push(text), () => undefined);
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await studio?.stop();
    await server?.stop();
  });

  const screenshot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `studio-${database}-${name}.png`) });

  /** Opens a table from the sidebar (the grid shows the previous table's rows until the new ones arrive). */
  async function openTable(model: string) {
    await page.locator('nav[aria-label="Tables"] a', { hasText: new RegExp(`^${model}$`) }).click();
    await page.waitForURL(new RegExp(`[#&]table=${model}(&|$)`));
  }

  const columnTexts = (column: string) => page.locator(`tbody td[data-grid-column-id="${column}"]`).allInnerTexts();
  /** the column's cells once the grid shows them (polled: the table's rows load after the click) */
  async function shownColumn(column: string, until: (texts: string[]) => boolean = (texts) => texts.length > 0): Promise<string[]> {
    await expect.poll(async () => until(await columnTexts(column)), { timeout: 15_000 }).toBe(true);
    return columnTexts(column);
  }

  it("listens on 127.0.0.1 only", async () => {
    expect(new URL(studio.url).hostname).toBe("127.0.0.1");
    expect((await fetch(studio.url)).status).toBe(200);
    // bound to 127.0.0.1, not to every address: another loopback address and IPv6 are refused
    expect(await tryConnect("127.0.0.2", studio.port)).not.toBe("connected");
    expect(await tryConnect("::1", studio.port)).not.toBe("connected");
    const ss = spawnSync("ss", ["-Hltn", `sport = :${studio.port}`], { encoding: "utf8" });
    if (!ss.error) {
      const locals = ss.stdout.trim().split("\n").filter(Boolean).map((line) => line.trim().split(/\s+/)[3]);
      expect(locals).toEqual([`127.0.0.1:${studio.port}`]);
    }
  });

  it("answers only its own Host and origin, and only JSON posts", async () => {
    const query = JSON.stringify({ procedure: "query", query: { sql: "SELECT 1 AS one", parameters: [] } });
    const own = { Host: `127.0.0.1:${studio.port}`, "Content-Type": "application/json" };
    expect(await rawRequest(studio.port, { method: "POST", path: "/bff", headers: own, body: query })).toEqual({ status: 200, body: '[null,[{"one":1}]]' });
    expect((await rawRequest(studio.port, { headers: { Host: `attacker.example:${studio.port}` } })).status).toBe(421); // DNS rebinding
    expect((await rawRequest(studio.port, { method: "POST", path: "/bff", headers: { ...own, Origin: "http://attacker.example" }, body: query })).status).toBe(403);
    expect((await rawRequest(studio.port, { method: "POST", path: "/bff", headers: { ...own, "Content-Type": "text/plain" }, body: query })).status).toBe(415);
  });

  it("lists every model", async () => {
    await page.goto(studio.url);
    const tables = page.locator('nav[aria-label="Tables"] a');
    await tables.first().waitFor();
    const names = await tables.allInnerTexts();
    expect(MODELS.length).toBeGreaterThan(30);
    for (const model of MODELS) expect(names, `table ${model} in the sidebar`).toContain(model);
    await screenshot("tables");
  });

  it("shows the rows of User and Project", async () => {
    await openTable("User");
    await shownColumn("username", (texts) => texts.includes("root"));
    expect(await columnTexts("name")).toContain("Administrator");
    await screenshot("user");

    await openTable("Project");
    await shownColumn("name", (texts) => texts.includes(projectName));
    await screenshot("project");
  });

  it("shows tokens only as digests and hook secrets only as ciphertext", async () => {
    await openTable("AccessToken");
    const digests = await shownColumn("digest");
    for (const digest of digests) expect(digest).toMatch(/^[0-9a-f]{64}$/);
    await screenshot("access-token");

    await openTable("WebHook");
    const urls = await shownColumn("encryptedUrl");
    const tokens = await columnTexts("encryptedToken");
    expect(urls).toHaveLength(1);
    expect(tokens).toHaveLength(1);
    for (const ciphertext of [...urls, ...tokens]) {
      expect(ciphertext.length).toBeGreaterThan(20);
      expect(ciphertext).not.toContain("secret");
    }
    await screenshot("group-hook");

    const shown = await page.locator("body").innerText();
    const answered = bffAnswers.join("\n");
    expect(answered).toContain(projectName); // the answers were seen...
    for (const secret of [E2E_ROOT_TOKEN, HOOK_TOKEN, HOOK_URL, `secret-path-${process.pid}`]) {
      expect(shown).not.toContain(secret); // ...and hold no secret in clear
      expect(answered).not.toContain(secret);
    }
  });

  it("stays offline and raises no page error", () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
