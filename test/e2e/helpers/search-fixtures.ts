// What the search end-to-end suites (gitbeaker and python-gitlab) search in: a public group with
// a public and a private project, issues (one confidential), a merge request, a milestone, a note,
// a commit and a file, all carrying one made-up word, and three callers (an outsider, a Developer
// of the private project, the administrator).
import { expect } from "vitest";
import { createUser, uniqueName, type E2eUser } from "./fixtures.js";
import { restClient } from "./rest.js";
import type { RunningServer } from "./server.js";

export interface SearchFixtures {
  /** the made-up word every searchable thing carries */
  term: string;
  groupId: number;
  publicProjectId: number;
  privateProjectId: number;
  issues: { open: number; confidential: number; private: number };
  mergeRequestIid: number;
  outsider: E2eUser;
  member: E2eUser;
}

export async function createSearchFixtures(server: RunningServer): Promise<SearchFixtures> {
  const root = restClient(server);
  const created = async (path: string, body: Record<string, unknown>) => {
    const answer = await root.post(path, body);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(201);
    return answer.body;
  };
  const term = `zorbl${Math.random().toString(36).slice(2, 8)}`;
  const group = await created("/groups", { name: uniqueName("search"), path: uniqueName("search"), visibility: "public" });
  const open = await created("/projects", { name: `Open ${term}`, namespace_id: group.id, visibility: "public", initialize_with_readme: true });
  const closed = await created("/projects", { name: uniqueName("closed"), namespace_id: group.id, visibility: "private" });
  const [outsider, member] = [await createUser(server), await createUser(server)];
  await created(`/projects/${closed.id}/members`, { user_id: member.id, access_level: 30 });
  const p = `/projects/${open.id}`;
  const openIssue = await created(`${p}/issues`, { title: `The ${term} crash`, description: "Seen twice" });
  const confidential = await created(`${p}/issues`, { title: `A ${term} leak`, confidential: true });
  const privateIssue = await created(`/projects/${closed.id}/issues`, { title: `Private ${term} work` });
  await created(`${p}/issues/${openIssue.iid}/notes`, { body: `Reproduced the ${term} crash` });
  await created(`${p}/milestones`, { title: `${term} release` });
  await created(`${p}/repository/commits`, {
    branch: "main", commit_message: `Handle ${term} input`,
    actions: [{ action: "create", file_path: "docs/notes.md", content: `# Notes\n\nThe ${term} parser.\n` }],
  });
  await created(`${p}/repository/commits`, {
    branch: "feature", start_branch: "main", commit_message: "Tidy the parser",
    actions: [{ action: "create", file_path: "src/parser.txt", content: "tidy\n" }],
  });
  const mr = await created(`${p}/merge_requests`, { source_branch: "feature", target_branch: "main", title: `Parse ${term} input` });
  return {
    term, groupId: group.id, publicProjectId: open.id, privateProjectId: closed.id,
    issues: { open: openIssue.iid, confidential: confidential.iid, private: privateIssue.iid },
    mergeRequestIid: mr.iid, outsider, member,
  };
}
