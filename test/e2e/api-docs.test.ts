// The API reference page (/api/v4/docs) in a real browser: Debian's chromium, headless, driven by
// playwright-core, against the real server. A user (a developer of a private project, with a
// personal access token) opens the page, finds the award emoji endpoints, pastes the token in
// Authorize (the PRIVATE-TOKEN scheme), tries "list an issue's award emoji" and sees the answer.
// The page must load nothing from outside the server (offline) and raise no page error.
// Screenshots go to test-artifacts/ (ignored by git). Without /usr/bin/chromium the file is
// skipped, except in CI (CI set), where .ci/run installs it and its absence is a failure.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgresql } from "../helpers/test-database.js";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { restClient } from "./helpers/rest.js";
import { REPO_ROOT, startServer, type RunningServer } from "./helpers/server.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");
const database = onPostgresql ? "postgresql" : "sqlite";

const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (apt-get install chromium)`;
if (missing) console.warn(`Skipping the API reference page browser test: ${missing}`);
const title = missing ? `API reference page (SKIPPED: ${missing})` : `API reference page on ${database}`;

if (missing && process.env.CI) {
  it("has a browser (.ci/run installs Debian's chromium)", () => {
    expect.fail(missing);
  });
}

describe.skipIf(missing !== null)(title, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let developer: E2eUser;
  let project: { id: number };
  let issue: { iid: number };
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  /** the PRIVATE-TOKEN header of each award emoji request the page sent */
  const sentTokens: (string | undefined)[] = [];

  beforeAll(async () => {
    server = await startServer();
    const root = restClient(server);
    developer = await createUser(server);
    const created = await root.post("/projects", { name: uniqueName("docs_project"), visibility: "private" });
    expect(created.status).toBe(201);
    project = created.body;
    expect((await root.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 })).status).toBe(201);
    const opened = await root.post(`/projects/${project.id}/issues`, { title: "Documented issue" });
    expect(opened.status).toBe(201);
    issue = opened.body;
    expect((await developer.api.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name: "rocket" })).status).toBe(201);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const origin = new URL(server.url).origin;
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin && url.protocol !== "data:" && url.protocol !== "blob:") foreignRequests.push(request.url());
      if (url.pathname.endsWith("/award_emoji")) sentTokens.push(request.headers()["private-token"]);
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const screenshot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `api-docs-${database}-${name}.png`) });

  it("without the token the issue is hidden (the page must send it)", async () => {
    const anonymous = await restClient(server, "").get(`/projects/${project.id}/issues/${issue.iid}/award_emoji`);
    expect(anonymous.status).toBe(404);
  });

  it("shows the API, finds the award emoji endpoints, authorizes with a token and runs one", async () => {
    await page.goto(`${server.url}/api/v4/docs`);
    await expect.poll(() => page.locator(".swagger-ui .info .title").innerText(), { timeout: 30_000 }).toContain("Forgeline");

    // the filter box narrows the page to a tag: the award emoji endpoints
    await page.locator(".operation-filter-input").fill("award_emoji");
    const section = page.locator("#operations-tag-award_emoji");
    await expect.poll(() => section.count()).toBe(1);
    const list = page.locator("#operations-award_emoji-issueAwardEmojis");
    await expect.poll(() => list.count()).toBe(1);
    expect(await page.locator(".opblock-tag-section").count()).toBe(1);
    await screenshot("award-emoji");

    // Authorize: paste the token into the PRIVATE-TOKEN scheme
    await page.locator(".auth-wrapper button.authorize").click();
    const scheme = page.locator(".auth-container").filter({ hasText: "PRIVATE-TOKEN" });
    await scheme.locator("input").fill(developer.token);
    await scheme.locator("button.authorize").click();
    await page.locator(".dialog-ux button.close-modal").click();

    // try it out: GET /projects/{id}/issues/{issue_iid}/award_emoji
    await list.locator(".opblock-summary").first().click();
    await list.locator("button.try-out__btn").click();
    await list.locator('tr[data-param-name="id"] input').fill(String(project.id));
    await list.locator('tr[data-param-name="issue_iid"] input').fill(String(issue.iid));
    await list.locator("button.execute").click();

    const live = list.locator(".live-responses-table");
    await expect.poll(() => live.locator("tbody .response-col_status").first().innerText(), { timeout: 15_000 }).toContain("200");
    const answer = await live.locator("tbody .response-col_description .microlight").first().innerText();
    expect(JSON.parse(answer)).toEqual([expect.objectContaining({ name: "rocket", awardable_type: "Issue", user: expect.objectContaining({ username: developer.username }) })]);
    expect(await live.innerText()).toMatch(/x-total:\s*1/i); // the pagination headers it documents
    expect(sentTokens).toEqual([developer.token]);
    await list.scrollIntoViewIfNeeded();
    await list.locator(".responses-wrapper").scrollIntoViewIfNeeded();
    await screenshot("tried");
  }, 90_000);

  it("loaded nothing from outside the server and raised no page error", () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
