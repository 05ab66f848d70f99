// node(id:) loads a record in one lookup plus its read rule (the project and the caller's
// memberships come from the caches): statements counted at the driver on a warm server, for every
// kind of caller, on a public and a private project. Whether the node is shown is checked against
// the REST read of the same record by the same caller, so a cheaper load cannot widen or narrow access.
import { beforeAll, describe, expect, it } from "vitest";
import { backgroundChecksDone } from "../../src/domain/merge-requests/mergeability.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { gid, graph } from "../helpers/graph.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createSnippet } from "../helpers/snippets-notes.js";
import { ACTORS, clientOf, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

/** Statements a node load may cost once warm: the record, then what its read rule and entity need. */
const NODE_BUDGETS = { Issue: 1, MergeRequest: 3, Note: 2, Snippet: 2 } as const;
type NodeType = keyof typeof NODE_BUDGETS;

let t: TestApp;
let team: TeamWithProjects;
/** Per project visibility: each node's database id and the REST path that reads the same record. */
const records: Record<"public" | "private", Record<NodeType, { id: number; restPath: string }>> = {} as never;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  for (const [visibility, project] of [["public", team.publicProject], ["private", team.privateProject]] as const) {
    const p = `/projects/${project.id}`;
    const issue = (await team.owner.api.post(`${p}/issues`, { title: "Node" })).body;
    const mr = await createMergeRequest(team.owner.api, project.id);
    const note = (await team.owner.api.post(`${p}/issues/${issue.iid}/notes`, { body: "A note" })).body;
    const snippet = await createSnippet(team.owner.api, project.id);
    records[visibility] = {
      Issue: { id: issue.id, restPath: `${p}/issues/${issue.iid}` },
      MergeRequest: { id: mr.id, restPath: `${p}/merge_requests/${mr.iid}` },
      Note: { id: note.id, restPath: `${p}/issues/${issue.iid}/notes/${note.id}` },
      Snippet: { id: snippet.id, restPath: `${p}/snippets/${snippet.id}` },
    };
  }
});

describe.each(["public", "private"] as const)("node(id:) on a %s project", (visibility) => {
  it.each(Object.keys(NODE_BUDGETS) as NodeType[])("%s: within its statement budget for every caller, shown exactly to those REST shows it to", async (type) => {
    const { id, restPath } = records[visibility][type];
    const query = `{ node(id: "${gid(type, id)}") { id } }`;
    for (const actor of ACTORS) {
      const client = clientOf(t, team, actor);
      await backgroundChecksDone();
      await graph(client, query); // warm: caches and prepared statements
      const before = t.services.sqlStats.statements;
      const res = await graph(client, query);
      const statements = t.services.sqlStats.statements - before;
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      const restShows = (await client.get(restPath, { raw: true })).status === 200;
      expect(res.body.data.node !== null, `${actor}: shown where REST shows the record`).toBe(restShows);
      expect(statements, `${actor}: statements of the load`).toBeLessThanOrEqual(NODE_BUDGETS[type]);
    }
  });
});
