// The hot reads (src/db/hot-reads.ts) skip Prisma's client outside transactions and send their SQL
// to the driver adapter (src/db/direct-reads.ts). Their rows must be exactly what `$queryRaw` gives:
// each read is run both ways on real rows (a confidential issue with a description, a merge request,
// reactions) and compared field by field, types included (Date, bigint, boolean, null).
import { beforeAll, describe, expect, it } from "vitest";
import { awardsPage, countAwards, issueByIid, mergeRequestByIid } from "../../src/db/hot-reads.js";
import type { Tx } from "../../src/domain/shared/events.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createMergeRequest } from "../helpers/merge-requests.js";

let t: TestApp;
let projectId: number;
let issue: { id: number; iid: number };
let mergeRequestIid: number;

beforeAll(async () => {
  t = await startTestApp();
  const project = (await t.root.post("/projects", { name: "Direct", visibility: "private", initialize_with_readme: true })).body;
  projectId = project.id;
  issue = (await t.root.post(`/projects/${projectId}/issues`, { title: "Read directly", description: "With a body", confidential: true, due_date: "2030-01-02" })).body;
  for (const name of ["thumbsup", "heart", "tada"]) {
    expect((await t.root.post(`/projects/${projectId}/issues/${issue.iid}/award_emoji`, { name })).status).toBe(201);
  }
  mergeRequestIid = (await createMergeRequest(t.root, projectId)).iid;
});

/** The read through the adapter, and the same read through Prisma's client (inside a transaction, where it must use the transaction's connection). */
async function bothWays<T>(read: (db: Tx) => Promise<T>): Promise<{ direct: T; throughPrisma: T }> {
  const direct = await read(t.services.db as unknown as Tx);
  const throughPrisma = await t.services.db.$transaction((tx) => read(tx as unknown as Tx));
  return { direct, throughPrisma };
}

describe("hot reads sent to the driver adapter", () => {
  it("an issue by iid: the same row, the same types", async () => {
    const { direct, throughPrisma } = await bothWays((db) => issueByIid(db, projectId, issue.iid));
    expect(direct).toEqual(throughPrisma);
    expect(direct).toMatchObject({ id: issue.id, iid: issue.iid, title: "Read directly", description: "With a body", confidential: true });
    expect(direct!.createdAt).toBeInstanceOf(Date);
    expect(direct!.createdAt.getTime()).toBe(throughPrisma!.createdAt.getTime());
    expect(direct!.closedAt).toBeNull();
  });

  it("a merge request by iid, and nothing for an iid that is not there", async () => {
    const found = await bothWays((db) => mergeRequestByIid(db, projectId, mergeRequestIid));
    expect(found.direct).toEqual(found.throughPrisma);
    expect(found.direct).toMatchObject({ iid: mergeRequestIid, projectId });
    const missing = await bothWays((db) => issueByIid(db, projectId, 999));
    expect(missing).toEqual({ direct: null, throughPrisma: null });
  });

  it("a page of reactions with its count, by id and by iid", async () => {
    const byId = await bothWays((db) => awardsPage(db, "Issue", issue.id, 1, 5, 101));
    expect(byId.direct).toEqual(byId.throughPrisma);
    expect(byId.direct.rows.map((award) => award.name)).toEqual(["heart", "tada"]);
    expect(byId.direct.counted).toBe(3);
    const byIid = await bothWays((db) => awardsPage(db, "Issue", { table: "Issue", projectId, iid: issue.iid }, 0, 5, 101));
    expect(byIid.direct).toEqual(byIid.throughPrisma);
    expect(byIid.direct.rows.map((award) => award.name)).toEqual(["thumbsup", "heart", "tada"]);
    const counted = await bothWays((db) => countAwards(db, "Issue", { table: "Issue", projectId, iid: issue.iid }, 2));
    expect(counted).toEqual({ direct: 2, throughPrisma: 2 });
  });

  it("counts each direct read as a statement", async () => {
    const before = t.services.sqlStats.statements;
    await issueByIid(t.services.db as unknown as Tx, projectId, issue.iid);
    expect(t.services.sqlStats.statements - before).toBe(1);
  });
});
