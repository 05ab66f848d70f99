// GraphiQL on the public graph (/graphql) in a real browser: Debian's chromium, headless, driven by
// playwright-core, against the real server process (npm start). Root has a project root/example
// (made through REST). A user opens GraphiQL: the schema loads anonymously (the default headers
// send no token), the user puts a token in the Headers editor, runs the default document's `Me`
// query and then its `OpenIssue` mutation from the run button's menu, and reads the answers in the
// response pane; the issue is then there through REST. The page loads nothing from elsewhere and
// raises no page error. Screenshots go to test-artifacts/ (ignored by git). Without
// /usr/bin/chromium the file is skipped, except in CI (CI set), where it is a failure.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgresql } from "../helpers/test-database.js";
import { restClient } from "./helpers/rest.js";
import { E2E_ROOT_TOKEN, REPO_ROOT, startServer, type RunningServer } from "./helpers/server.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");
const database = onPostgresql ? "postgresql" : "sqlite";
/** GraphiQL is a 9 MB page: slow to start on a loaded machine (every wait on the page has this much) */
const UI_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 180_000;

const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (apt-get install chromium)`;
if (missing) console.warn(`Skipping the GraphiQL browser test: ${missing}`);
const title = missing ? `GraphiQL in a browser (SKIPPED: ${missing})` : `GraphiQL in a browser on ${database}`;

if (missing && process.env.CI) {
  it("has a browser (.ci/run installs Debian's chromium)", () => {
    expect.fail(missing);
  });
}

/**
 * A Monaco editor's text as shown, line by line in order of position (Monaco renders spaces as
 * nbsp). The response pane wraps long lines: the page is wide enough for the answers read here.
 */
function editorText(editor: Locator): Promise<string> {
  return editor.locator(".view-lines").evaluate((lines) =>
    [...lines.querySelectorAll<HTMLElement>(".view-line")]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
      .map((line) => line.textContent ?? "")
      .join("\n")
      .replace(/\u00a0/g, " "),
  );
}

describe.skipIf(missing !== null)(title, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let rootId: number;
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  /** each GraphQL request the page sent: its operation and its PRIVATE-TOKEN header */
  const sent: { operationName: string | undefined; token: string | undefined }[] = [];

  beforeAll(async () => {
    server = await startServer();
    const root = restClient(server);
    rootId = (await root.get("/user")).body.id;
    const created = await root.post("/projects", { name: "example", path: "example" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.path_with_namespace).toBe("root/example"); // the default document's project

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    // the clipboard: the user pastes the headers (see "puts the token in the Headers editor")
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, permissions: ["clipboard-read", "clipboard-write"] });
    page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.setDefaultNavigationTimeout(UI_TIMEOUT_MS);
    const origin = new URL(server.url).origin;
    page.on("request", (request) => {
      const url = new URL(request.url());
      // GraphiQL starts Monaco's workers from blob: URLs of the page's own scripts
      if (url.origin !== origin && url.protocol !== "data:" && url.protocol !== "blob:") foreignRequests.push(request.url());
      if (url.pathname === "/graphql" && request.method() === "POST") {
        sent.push({ operationName: JSON.parse(request.postData() ?? "{}").operationName, token: request.headers()["private-token"] });
      }
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const screenshot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `graphiql-${database}-${name}.png`) });
  const queryEditor = () => page.locator(".graphiql-query-editor");
  const responsePane = () => page.locator(".graphiql-response");
  /** the editor of the tab shown below the query (Variables or Headers); the other one is hidden */
  const headersEditor = () => page.getByRole("region", { name: "Headers" }).locator(".graphiql-editor:not(.hidden)");

  /** The run button offers the document's operations by name; pick one, then read the answer once the pane shows `until`. */
  async function run(operationName: string, until: string): Promise<any> {
    await page.getByRole("button", { name: /^Execute query/ }).click();
    const menu = page.getByRole("menuitem");
    await menu.first().waitFor();
    expect(await menu.allInnerTexts()).toEqual(["Me", "ProjectOverview", "OpenIssue"]);
    await menu.filter({ hasText: new RegExp(`^${operationName}$`) }).click();
    await expect.poll(() => editorText(responsePane()), { timeout: UI_TIMEOUT_MS }).toContain(until);
    // JSON once the pane has drawn all of it
    await expect.poll(async () => parsed(await editorText(responsePane())), { timeout: UI_TIMEOUT_MS }).toBeDefined();
    return parsed(await editorText(responsePane()));
  }

  function parsed(text: string): any {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  it("opens with the example operations and loads the schema anonymously", async () => {
    await page.goto(`${server.url}/graphql`);
    await expect.poll(() => editorText(queryEditor()), { timeout: UI_TIMEOUT_MS }).toContain("query Me {");
    expect(await page.title()).toBe("Forgeline GraphQL");
    const document = await editorText(queryEditor());
    expect(document).toContain('query ProjectOverview($fullPath: ID! = "root/example")');
    // the Docs explorer lists the schema's root types: introspection worked without a token
    await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
    await page.getByText("Root Types").waitFor();
    await expect.poll(() => page.locator(".graphiql-doc-explorer").innerText(), { timeout: UI_TIMEOUT_MS }).toMatch(/mutation:\s*Mutation/);
    expect(await page.getByText("Error fetching schema").count()).toBe(0);
    await screenshot("loaded");
    await page.getByRole("button", { name: "Hide Documentation Explorer" }).click();

    // the default headers hold the token's name commented out: nothing was sent as a token
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((request) => request.operationName === "IntrospectionQuery" && request.token === undefined)).toBe(true);
    expect(await editorText(responsePane())).toBe("");
  }, STEP_TIMEOUT_MS);

  it("puts the token in the Headers editor and runs Me: root, with its global id", async () => {
    await page.getByRole("button", { name: "Headers", exact: true }).click();
    await expect.poll(() => editorText(headersEditor()), { timeout: UI_TIMEOUT_MS }).toContain('// "PRIVATE-TOKEN": "<your personal access token>"');
    // Pasted: typed or inserted (keyboard.type, keyboard.insertText) over the selection, Monaco's
    // auto-closing leaves a stray `"}` after the JSON
    const headers = `{"PRIVATE-TOKEN": "${E2E_ROOT_TOKEN}"}`;
    await page.evaluate((text) => navigator.clipboard.writeText(text), headers);
    await headersEditor().locator(".view-lines").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("ControlOrMeta+V");
    await expect.poll(() => editorText(headersEditor()), { timeout: UI_TIMEOUT_MS }).toBe(headers);

    const me = await run("Me", '"currentUser"');
    expect(me).toEqual({ data: { currentUser: { id: `gid://forgeline/User/${rootId}`, username: "root", name: "Administrator" } } });
    expect(sent.filter((request) => request.operationName === "Me")).toEqual([{ operationName: "Me", token: E2E_ROOT_TOKEN }]);
    await screenshot("me");
  }, STEP_TIMEOUT_MS);

  it("runs the OpenIssue mutation, and the issue is there through REST", async () => {
    const opened = await run("OpenIssue", '"createIssue"');
    expect(opened.errors).toBeUndefined();
    expect(opened.data.createIssue).toEqual({
      issue: { id: expect.stringMatching(/^gid:\/\/forgeline\/Issue\/\d+$/), iid: "1", webUrl: `${server.url}/root/example/-/issues/1` },
      errors: [],
    });
    expect(sent.filter((request) => request.operationName === "OpenIssue")).toEqual([{ operationName: "OpenIssue", token: E2E_ROOT_TOKEN }]);
    await screenshot("open-issue");

    const issues = await restClient(server).get("/projects/root%2Fexample/issues");
    expect(issues.status).toBe(200);
    expect(issues.body).toHaveLength(1);
    expect(issues.body[0]).toMatchObject({ iid: 1, title: "Opened from GraphiQL", state: "opened", author: { username: "root" }, web_url: opened.data.createIssue.issue.webUrl });
    expect(opened.data.createIssue.issue.id).toBe(`gid://forgeline/Issue/${issues.body[0].id}`);
  }, STEP_TIMEOUT_MS);

  it("stays offline and raises no page error", () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
