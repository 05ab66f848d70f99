// The label filters of the issue and merge request lists as GitLab's IssuableFinder reads them:
// labels=a,b (every one), labels=None / Any, and the `not` Hash: not[labels]=a,b leaves out what
// has any of those labels, alone or with labels=; a `not` that is no Hash is Grape's 400.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";

let t: TestApp;
let owner: TestUser;
let project: any;
let red: string;
let blue: string;
const made: Record<"issues" | "merge_requests", Record<"none" | "red" | "blue" | "both", number>> = { issues: {} as any, merge_requests: {} as any };

beforeAll(async () => {
  t = await startTestApp();
  owner = await createUser(t);
  project = await createProject(owner.api);
  [red, blue] = [uniq("red"), uniq("blue")];
  const sets = { none: "", red, blue, both: `${red},${blue}` } as const;
  for (const [key, labels] of Object.entries(sets) as [keyof typeof sets, string][]) {
    made.issues[key] = (await createIssue(owner.api, project.id, { title: key, labels })).iid;
    made.merge_requests[key] = (await createMergeRequest(owner.api, project.id, { title: key, labels })).iid;
  }
});

const KINDS = ["issues", "merge_requests"] as const;

describe.each(KINDS)("GET /projects/:id/%s", (kind) => {
  const list = async (query: Record<string, string>) => {
    const res = await owner.api.get(`/projects/${project.id}/${kind}`, { query: { per_page: "100", ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body.map((i: any) => i.iid).sort((a: number, b: number) => a - b);
  };
  const iids = (...keys: ("none" | "red" | "blue" | "both")[]) => keys.map((k) => made[kind][k]).sort((a, b) => a - b);

  it("labels=a,b: what has every one of them", async () => {
    expect(await list({ labels: red })).toEqual(iids("red", "both"));
    expect(await list({ labels: `${red},${blue}` })).toEqual(iids("both"));
  });

  it("labels=None and labels=Any", async () => {
    expect(await list({ labels: "None" })).toEqual(iids("none"));
    expect(await list({ labels: "Any" })).toEqual(iids("red", "blue", "both"));
  });

  it("not[labels]: leaves out what has any of them", async () => {
    expect(await list({ "not[labels]": red })).toEqual(iids("none", "blue"));
    expect(await list({ "not[labels]": `${red},${blue}` })).toEqual(iids("none"));
    expect(await list({ "not[labels]": "no-such-label" })).toEqual(iids("none", "red", "blue", "both"));
  });

  it("labels and not[labels] together", async () => {
    expect(await list({ labels: red, "not[labels]": blue })).toEqual(iids("red"));
    expect(await list({ labels: "Any", "not[labels]": red })).toEqual(iids("blue"));
  });

  it("a `not` that is not a Hash: 400 not is invalid", async () => {
    const res = await owner.api.get(`/projects/${project.id}/${kind}`, { query: { not: "x" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "not is invalid" });
  });

  it("the lists across projects read not[labels] too", async () => {
    const res = await owner.api.get(`/${kind}`, { query: { scope: "all", "not[labels]": red, labels: "Any", per_page: "100" } });
    expect(res.status, res.text).toBe(200);
    const here = res.body.filter((i: any) => i.project_id === project.id).map((i: any) => i.iid);
    expect(here).toEqual([made[kind].blue]);
  });
});
