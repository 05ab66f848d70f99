// Group approval rules (experimental, approval_group_rules flag on), both write routes by every
// actor on a private and a public top-level group: admin_group, so the group's Owner and
// administrators only (401 without a token, 404 Group Not Found for whoever cannot see the group,
// 403 for everyone else, Maintainers included). Every row reads the rules back as an administrator.
import { beforeAll, describe, expect, it } from "vitest";
import { idsOf } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, uniq } from "../helpers/factories.js";
import { ACTORS, clientOf, createTeam, type Actor, type Team } from "../helpers/team.js";

type Visibility = "private" | "public";

let t: TestApp;
let team: Team;
const groups = {} as Record<Visibility, any>;

const rules = (visibility: Visibility) => `/groups/${groups[visibility].id}/approval_rules`;

function refusal(actor: Actor, visibility: Visibility): [number, object] | undefined {
  if (actor === "anonymous") return [401, { message: "401 Unauthorized" }];
  if (actor === "nonMember" && visibility === "private") return [404, { message: "404 Group Not Found" }];
  if (actor === "owner" || actor === "admin") return undefined;
  return [403, { message: "403 Forbidden" }];
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  expect((await t.root.post("/features/approval_group_rules", { value: true })).status).toBe(201);
  for (const visibility of ["private", "public"] as const) {
    groups[visibility] = await createGroup(team.owner.api, { visibility });
    for (const [role, level] of [["maintainer", 40], ["developer", 30], ["reporter", 20], ["guest", 10]] as const) {
      await addMember(team.owner.api, "groups", groups[visibility].id, team[role].id, level);
    }
  }
});

/** The group's rules as an administrator sees them. */
const listed = async (visibility: Visibility) => (await t.root.get(rules(visibility), { query: { per_page: 100 } })).body;

const CASES = (["private", "public"] as const).flatMap((visibility) =>
  ACTORS.map((actor) => [`${actor} on the ${visibility} group`, actor, visibility] as const));

describe("POST /groups/:id/approval_rules by every actor", () => {
  it.each(CASES)("%s", async (_name, actor, visibility) => {
    const name = uniq(`group-rule-${actor}`);
    const res = await clientOf(t, team, actor).post(rules(visibility), { name, approvals_required: 1, user_ids: [team.developer.id] });
    const refused = refusal(actor, visibility);
    if (refused) expect([res.status, res.body]).toEqual(refused);
    else expect([res.status, res.body.name, res.body.approvals_required, idsOf(res.body.users)]).toEqual([201, name, 1, [team.developer.id]]);
    expect((await listed(visibility)).map((rule: any) => rule.name).includes(name)).toBe(!refused);
  });
});

describe("PUT /groups/:id/approval_rules/:approval_rule_id by every actor", () => {
  it.each(CASES)("%s", async (_name, actor, visibility) => {
    const created = await t.root.post(rules(visibility), { name: uniq(`put-${actor}`), approvals_required: 1, user_ids: [team.developer.id] });
    expect(created.status, created.text).toBe(201);
    const rule = created.body;
    const res = await clientOf(t, team, actor).put(`${rules(visibility)}/${rule.id}`, { approvals_required: 3, user_ids: [team.maintainer.id] });
    const refused = refusal(actor, visibility);
    if (refused) expect([res.status, res.body]).toEqual(refused);
    else expect([res.status, res.body.id, res.body.approvals_required, idsOf(res.body.users)]).toEqual([200, rule.id, 3, [team.maintainer.id]]);
    const after = (await listed(visibility)).find((r: any) => r.id === rule.id);
    expect([after.name, after.approvals_required, idsOf(after.users)]).toEqual(
      refused ? [rule.name, 1, [team.developer.id]] : [rule.name, 3, [team.maintainer.id]],
    );
  });
});
