// with_labels_details=true on the issue and merge request lists (GitLab's IssueBasic and
// MergeRequestBasic `labels`): LabelBasic objects in title order instead of titles. GitLab's single
// reads and writes take no such param: they keep showing titles.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createGroup, createProject, uniq } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import type { ApiClient } from "../helpers/api.js";

let t: TestApp;
let api: ApiClient;
let group: any;
let project: any;
let groupLabel: any;
let projectLabel: any;
let issue: any;
let mr: any;

const LABEL_KEYS = ["id", "name", "color", "description", "description_html", "text_color", "remove_on_close"];

beforeAll(async () => {
  t = await startTestApp();
  api = t.root;
  group = await createGroup(api, { path: uniq("details") });
  project = await createProject(api, { namespace_id: group.id });
  // "B-..." sorts before "a-..." (bytewise, as GitLab sorts titles)
  groupLabel = (await api.post(`/groups/${group.id}/labels`, { name: uniq("a-group"), color: "#FFFFFF", description: "From the group" })).body;
  projectLabel = (await api.post(`/projects/${project.id}/labels`, { name: uniq("B-project"), color: "red" })).body;
  issue = await createIssue(api, project.id, { labels: `${groupLabel.name},${projectLabel.name}` });
  mr = await createMergeRequest(api, project.id, { labels: `${groupLabel.name},${projectLabel.name}` });
});

const details = () => [
  { id: projectLabel.id, name: projectLabel.name, color: "#FF0000", description: null, description_html: "", text_color: "#FFFFFF", remove_on_close: false },
  {
    id: groupLabel.id, name: groupLabel.name, color: "#FFFFFF", description: "From the group",
    description_html: '<p dir="auto">From the group</p>', text_color: "#333333", remove_on_close: false,
  },
];
const titles = () => [projectLabel.name, groupLabel.name];

describe("with_labels_details", () => {
  const lists = () => [
    [`/projects/${project.id}/issues`, issue.id],
    ["/issues", issue.id],
    [`/projects/${project.id}/merge_requests`, mr.id],
    [`/groups/${group.id}/merge_requests`, mr.id],
    ["/merge_requests", mr.id],
  ] as const;

  it("shows each label as LabelBasic on every issue and merge request list", async () => {
    for (const [path, id] of lists()) {
      const res = await api.get(path, { query: { with_labels_details: "true", scope: "all" } });
      expect([path, res.status]).toEqual([path, 200]);
      const row = res.body.find((r: any) => r.id === id);
      expect(Object.keys(row.labels[0])).toEqual(LABEL_KEYS);
      expect([path, row.labels]).toEqual([path, details()]);
    }
  });

  it("shows titles without it, or with false", async () => {
    for (const [path, id] of lists()) {
      for (const query of [{ scope: "all" }, { scope: "all", with_labels_details: "false" }] as Record<string, string>[]) {
        const res = await api.get(path, { query });
        expect([path, res.body.find((r: any) => r.id === id).labels]).toEqual([path, titles()]);
      }
    }
  });

  it("is ignored by single reads and writes, which show titles as GitLab's do", async () => {
    const one = await api.get(`/projects/${project.id}/issues/${issue.iid}`, { query: { with_labels_details: "true" } });
    expect(one.body.labels).toEqual(titles());
    const mrOne = await api.get(`/projects/${project.id}/merge_requests/${mr.iid}`, { query: { with_labels_details: "true" } });
    expect(mrOne.body.labels).toEqual(titles());
    const updated = await api.put(`/projects/${project.id}/issues/${issue.iid}`, { title: "Still titles", with_labels_details: true });
    expect(updated.body.labels).toEqual(titles());
  });

  it("refuses a value that is no boolean (Grape's 400)", async () => {
    for (const path of [`/projects/${project.id}/issues`, `/projects/${project.id}/merge_requests`]) {
      const res = await api.get(path, { query: { with_labels_details: "maybe" } });
      expect([res.status, res.body]).toEqual([400, { error: "with_labels_details is invalid" }]);
    }
  });

  it("shows an issuable without labels with an empty list", async () => {
    const bare = await createIssue(api, project.id);
    const res = await api.get(`/projects/${project.id}/issues`, { query: { with_labels_details: "true", iids: String(bare.iid) } });
    expect(res.body.map((r: any) => r.labels)).toEqual([[]]);
  });
});
