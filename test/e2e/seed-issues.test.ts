// `npm run db:seed-issues -- <project> <count>` (scripts/seed-issues.ts, which `npm run bench` and
// `npm run bench:databases` use for their big lists) against a running server's database: the
// seeded issues are what the API lists, found by search, and the next issue created through the
// API continues their iids.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restClient, type RestClient } from "./helpers/rest.js";
import { REPO_ROOT, startServer, type RunningServer } from "./helpers/server.js";

let server: RunningServer;
let root: RestClient;

beforeAll(async () => {
  server = await startServer();
  root = restClient(server);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

async function seed(...args: string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env, NODE_OPTIONS: "", DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl, WEBHOOK_ENCRYPTION_KEY: server.encryptionKey ?? "" };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/seed-issues.ts", ...args], { cwd: REPO_ROOT, env });
    return { code: 0, output: stdout + stderr };
  } catch (error: any) {
    return { code: error.code, output: `${error.stdout}${error.stderr}` };
  }
}

describe("npm run db:seed-issues", () => {
  it("inserts issues the API lists, searches and continues", async () => {
    const project = await root.post("/projects", { name: "Seeded", path: "seeded", visibility: "public" });
    expect(project.status).toBe(201);
    const first = await root.post(`/projects/${project.body.id}/issues`, { title: "Written through the API" });
    expect(first.body.iid).toBe(1);

    const seeded = await seed(String(project.body.id), "45");
    expect(seeded, seeded.output).toMatchObject({ code: 0, output: expect.stringContaining(`Inserted 45 issues into project ${project.body.id}`) });
    const byPath = await seed(project.body.path_with_namespace, "5");
    expect(byPath.code, byPath.output).toBe(0);

    const all = await root.get(`/projects/${project.body.id}/issues?per_page=100`);
    expect(all.headers.get("x-total")).toBe("51");
    expect(all.body.map((issue: { iid: number }) => issue.iid).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    // each run's issues one second apart, its newest a second before it ran: created_at order is iid order within a run
    const seededRun = all.body.filter((issue: { iid: number }) => issue.iid >= 2 && issue.iid <= 46).map((issue: { iid: number }) => issue.iid);
    expect(seededRun).toEqual(Array.from({ length: 45 }, (_, i) => 46 - i));
    expect(all.body.find((issue: { iid: number }) => issue.iid === 51)).toMatchObject({ title: "Seeded issue 51", state: "opened", labels: [], confidential: false });

    const found = await root.get(`/projects/${project.body.id}/search?scope=issues&search=${encodeURIComponent("Seeded issue 37")}`);
    expect(found.status).toBe(200);
    expect(found.body.map((issue: { iid: number }) => issue.iid)).toContain(37);

    const next = await root.post(`/projects/${project.body.id}/issues`, { title: "After the seed" });
    expect(next.body.iid).toBe(52);
  });

  it("refuses an unknown project and a count that is not positive", async () => {
    expect(await seed("no/such-project", "3")).toMatchObject({ code: 2, output: expect.stringContaining("project no/such-project not found") });
    expect(await seed("1", "0")).toMatchObject({ code: 2, output: expect.stringContaining("a project and a positive count are needed") });
  });
});
