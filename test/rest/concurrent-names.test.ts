// The same name asked for by several requests at once (on PostgreSQL, each in its own transaction
// on its own connection): one creation wins, the others get the answer GitLab gives for a taken
// name, never a 500. The unique indexes decide; the domain then reports what its check reports.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";

const AT_ONCE = 6;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

async function raced(path: string, body: Record<string, unknown>) {
  const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => t.root.post(path, body)));
  return { statuses: answers.map((answer) => answer.status).sort(), losers: answers.filter((answer) => answer.status !== 201).map((a) => a.body) };
}

describe(`${AT_ONCE} creations of one name at once`, () => {
  it("groups: one 201, then 400 Failed to save group {:path=>[...]}", async () => {
    const { statuses, losers } = await raced("/groups", { name: "Raced", path: "raced" });
    expect(statuses).toEqual([201, ...Array(AT_ONCE - 1).fill(400)]);
    for (const body of losers) expect(body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
  });

  it("projects: one 201, then 400 with the name and path taken", async () => {
    const { statuses, losers } = await raced("/projects", { name: "Raced project", path: "raced-project" });
    expect(statuses).toEqual([201, ...Array(AT_ONCE - 1).fill(400)]);
    for (const body of losers) expect(body.message).toMatchObject({ path: ["has already been taken"] });
  });

  it("projects with one name and different paths: one 201, then 400 with the name taken", async () => {
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => t.root.post("/projects", { name: "Same name", path: `same-name-${i}` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array(AT_ONCE - 1).fill(400)]);
    for (const loser of answers.filter((answer) => answer.status !== 201)) expect(loser.body.message).toMatchObject({ name: ["has already been taken"] });
  });

  it("users: one 201, then 409 Username has already been taken", async () => {
    const { statuses, losers } = await raced("/users", { username: "racer", name: "R", email: "racer@example.com", password: "password-123456" });
    expect(statuses).toEqual([201, ...Array(AT_ONCE - 1).fill(409)]);
    for (const body of losers) expect(body.message).toMatch(/has already been taken/);
  });

  it("topics: one 201, then 400 name has already been taken", async () => {
    const { statuses, losers } = await raced("/topics", { name: "raced", title: "Raced" });
    expect(statuses).toEqual([201, ...Array(AT_ONCE - 1).fill(400)]);
    for (const body of losers) expect(body).toEqual({ message: { name: ["has already been taken"] } });
  });
});
