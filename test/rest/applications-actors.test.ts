// Instance-wide OAuth applications, every write route by every actor: only an administrator may
// create, delete or renew (GitLab's authenticated_as_admin!: 401 without a token, 403 for any other
// user, whatever their project roles). Refusals leave the applications as they were: none created,
// none deleted, the secret still the one handed out.
import { beforeAll, describe, expect, it } from "vitest";
import { secretMatches } from "../../src/domain/oauth/applications.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { ADMIN_ONLY_REFUSALS } from "../helpers/errors.js";
import { uniq } from "../helpers/factories.js";
import { ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

const REFUSALS: Partial<Record<Actor, readonly [number, object]>> = ADMIN_ONLY_REFUSALS;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t); // project roles, which give no say over instance applications
});

const appBody = (name: string) => ({ name, redirect_uri: "https://app.example.com/callback", scopes: "api read_user" });

async function newApplication(): Promise<{ id: number; application_id: string; secret: string; application_name: string }> {
  const res = await t.root.post("/applications", appBody(uniq("app")));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The application as GET /applications lists it to the administrator, or undefined. */
async function listed(id: number): Promise<any> {
  const res = await t.root.get("/applications", { query: { per_page: 100 } });
  expect(res.status).toBe(200);
  return res.body.find((app: any) => app.id === id);
}

async function secretStillMatches(id: number, secret: string): Promise<boolean> {
  return secretMatches(await t.services.db.application.findUniqueOrThrow({ where: { id } }), secret);
}

describe("POST /applications by every actor", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const name = uniq(`by-${actor}`);
    const before = await t.services.db.application.count();
    const res = await clientOf(t, team, actor).post("/applications", appBody(name));
    const refusal = REFUSALS[actor];
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect(await t.services.db.application.count()).toBe(before);
      const all = (await t.root.get("/applications", { query: { per_page: 100 } })).body;
      expect(all.map((app: any) => app.application_name)).not.toContain(name);
    } else {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ application_name: name, callback_url: "https://app.example.com/callback", confidential: true });
      expect(await t.services.db.application.count()).toBe(before + 1);
      expect(await listed(res.body.id)).toEqual({
        id: res.body.id, application_id: res.body.application_id, application_name: name,
        callback_url: "https://app.example.com/callback", confidential: true,
      });
      expect(await secretStillMatches(res.body.id, res.body.secret)).toBe(true);
    }
  });
});

describe("DELETE /applications/:id by every actor", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const app = await newApplication();
    const res = await clientOf(t, team, actor).delete(`/applications/${app.id}`);
    const refusal = REFUSALS[actor];
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect(await listed(app.id)).toMatchObject({ id: app.id, application_id: app.application_id });
      expect(await secretStillMatches(app.id, app.secret)).toBe(true);
    } else {
      expect([res.status, res.text]).toEqual([204, ""]);
      expect(await listed(app.id)).toBeUndefined();
      expect(await t.services.db.application.findUnique({ where: { id: app.id } })).toBeNull();
    }
  });
});

describe("POST /applications/:id/renew-secret by every actor", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const app = await newApplication();
    const res = await clientOf(t, team, actor).post(`/applications/${app.id}/renew-secret`);
    const refusal = REFUSALS[actor];
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect(await secretStillMatches(app.id, app.secret)).toBe(true);
    } else {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: app.id, application_id: app.application_id, secret: expect.stringMatching(/^gloas-[0-9a-f]{64}$/) });
      expect(res.body.secret).not.toBe(app.secret);
      expect(await secretStillMatches(app.id, app.secret)).toBe(false);
      expect(await secretStillMatches(app.id, res.body.secret)).toBe(true);
    }
  });
});
