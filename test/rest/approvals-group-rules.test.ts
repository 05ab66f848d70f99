// Group approval rules (experimental): only while the approval_group_rules feature flag is on
// (404 otherwise), for group Owners and administrators; approvers are direct group members; every
// rule covers all protected branches of the group's projects; only top-level groups; validation.
import { beforeAll, describe, expect, it } from "vitest";
import { idsOf } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { protectBranch } from "../helpers/repository.js";

let t: TestApp;
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let outsider: TestUser;
let group: any;

const rules = (groupId: number | string) => `/groups/${encodeURIComponent(String(groupId))}/approval_rules`;
const setFlag = async (value: boolean) => expect((await t.root.post("/features/approval_group_rules", { value })).status).toBe(201);

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, outsider] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t)]);
  group = await createGroup(owner.api);
  await addMember(owner.api, "groups", group.id, maintainer.id, 40);
  await addMember(owner.api, "groups", group.id, developer.id, 30);
});

describe("with the approval_group_rules flag off", () => {
  it("answers 404 Not Found after authentication and the group lookup", async () => {
    expect((await t.anon.get(rules(group.id))).body).toEqual({ message: "401 Unauthorized" });
    expect((await outsider.api.get(rules(group.id))).body).toEqual({ message: "404 Group Not Found" });
    for (const api of [owner.api, t.root]) {
      expect((await api.get(rules(group.id))).body).toEqual({ message: "404 Not Found" });
      const created = await api.post(rules(group.id), { name: "R", approvals_required: 1 });
      expect([created.status, created.body]).toEqual([404, { message: "404 Not Found" }]);
      expect((await api.put(`${rules(group.id)}/1`, { name: "R" })).status).toBe(404);
    }
  });
});

describe("with the approval_group_rules flag on", () => {
  beforeAll(() => setFlag(true));

  it("creates rules for Owners: direct members only, all protected branches of the group's projects", async () => {
    const project = await createProject(owner.api, { namespace_id: group.id });
    const main = await protectBranch(owner.api, project.id, "main");
    const visible = await createGroup(owner.api, { visibility: "public" });
    const res = await owner.api.post(rules(group.id), {
      name: "Security", approvals_required: 2, user_ids: [developer.id, outsider.id], group_ids: [visible.id], rule_type: "regular",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Security", rule_type: "regular", approvals_required: 2, report_type: null, contains_hidden_groups: false,
      applies_to_all_protected_branches: true,
    });
    expect(idsOf(res.body.users)).toEqual([developer.id]);
    expect(res.body.groups.map((g: any) => g.id)).toEqual([visible.id]);
    expect(res.body.protected_branches.map((b: any) => b.id)).toEqual([main.id]);
    expect(idsOf(res.body.eligible_approvers)).toEqual([owner.id, developer.id].sort((a, b) => a - b));
    const byAdmin = await t.root.post(rules(group.full_path), { name: "By admin", approvals_required: 0, user_ids: [developer.id] });
    expect(byAdmin.status).toBe(201);
  });

  it("lists them (paginated) for Owners and administrators only", async () => {
    // a group of its own, so that the test passes alone
    const listed = await createGroup(owner.api);
    await addMember(owner.api, "groups", listed.id, maintainer.id, 40);
    await addMember(owner.api, "groups", listed.id, developer.id, 30);
    for (const name of ["First", "Second"]) {
      const created = await owner.api.post(rules(listed.id), { name, approvals_required: 1, user_ids: [developer.id], rule_type: "regular" });
      expect(created.status, created.text).toBe(201);
    }
    const res = await owner.api.get(rules(listed.id), { query: { per_page: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.headers.get("x-total")).toBe("2");
    expect((await t.root.get(rules(listed.id))).body.map((r: any) => r.name)).toEqual(["First", "Second"]);
    const guest = await createUser(t);
    await addMember(owner.api, "groups", listed.id, guest.id, 10);
    expect((await t.anon.get(rules(listed.id))).body).toEqual({ message: "401 Unauthorized" });
    const anonymousCreate = await t.anon.post(rules(listed.id), { name: "No", approvals_required: 1 });
    expect([anonymousCreate.status, anonymousCreate.body]).toEqual([401, { message: "401 Unauthorized" }]);
    for (const user of [guest, maintainer, developer]) {
      expect((await user.api.get(rules(listed.id))).body).toEqual({ message: "403 Forbidden" });
      const refused = await user.api.post(rules(listed.id), { name: "No", approvals_required: 1 });
      expect([refused.status, refused.body]).toEqual([403, { message: "403 Forbidden" }]);
    }
    expect((await outsider.api.get(rules(listed.id))).body).toEqual({ message: "404 Group Not Found" });
    expect((await t.root.get(rules(listed.id))).body).toHaveLength(2);
  });

  it("updates a rule; an unknown id answers 404 Approval Rule Not Found", async () => {
    const created = (await owner.api.post(rules(group.id), { name: "Editable", approvals_required: 1, user_ids: [developer.id] })).body;
    const res = await owner.api.put(`${rules(group.id)}/${created.id}`, { approvals_required: 3, user_ids: [maintainer.id] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: "Editable", approvals_required: 3 });
    expect(idsOf(res.body.users)).toEqual([maintainer.id]);
    expect((await owner.api.put(`${rules(group.id)}/999999`, { name: "x" })).body).toEqual({ message: "404 Approval Rule Not Found" });
    expect((await maintainer.api.put(`${rules(group.id)}/${created.id}`, { name: "x" })).status).toBe(403);
  });

  it("validates: names per rule type, one any_approver rule, top-level groups, 0..100", async () => {
    const fresh = await createGroup(owner.api);
    expect((await owner.api.post(rules(fresh.id), { name: "Any", approvals_required: 1 })).body).toMatchObject({ rule_type: "any_approver" });
    expect((await owner.api.post(rules(fresh.id), { name: "Any 2", approvals_required: 1, rule_type: "any_approver" })).body)
      .toEqual({ message: { rule_type: ["any-approver for the group already exists"] } });
    expect((await owner.api.post(rules(fresh.id), { name: "Big", approvals_required: 101, user_ids: [owner.id] })).body)
      .toEqual({ message: { approvals_required: ["must be less than or equal to 100"] } });
    expect((await owner.api.post(rules(fresh.id), { name: "Any", approvals_required: 1, rule_type: "any_approver" })).body.message)
      .toEqual({ name: ["has already been taken"], rule_type: ["any-approver for the group already exists"] });
    const sub = await createGroup(owner.api, { parent_id: fresh.id });
    expect((await owner.api.post(rules(sub.id), { name: "Sub", approvals_required: 1, user_ids: [owner.id] })).body)
      .toEqual({ message: { group: ["must be a top level Group"] } });
    expect((await owner.api.post(rules(fresh.id), { name: "Sub" })).body).toEqual({ error: "approvals_required is missing" });
  });

  it("turns off again with the flag", async () => {
    await setFlag(false);
    expect((await owner.api.get(rules(group.id))).status).toBe(404);
    await setFlag(true);
    expect((await owner.api.get(rules(group.id))).status).toBe(200);
  });
});
