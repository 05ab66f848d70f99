// Audit events against the real server process, driven by @gitbeaker/rest (AuditEvents.all and
// show: instance, group and project) and python-gitlab 3.12 (test/e2e/python/audit_events.py:
// gl.audit_events, group.audit_events, project.audit_events, keyset pages, errors).
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { failure } from "./helpers/gitbeaker.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

describe("@gitbeaker/rest AuditEvents", () => {
  it("lists and shows the instance's, a group's and a project's audit events, and refuses others", async () => {
    const api = gitlab();
    const name = uniqueName("gbae").toLowerCase().replace(/_/g, "-");
    const group: any = await api.Groups.create(name, name, { visibility: "public" });
    const project: any = await api.Projects.create({ name, namespaceId: group.id, visibility: "public" });
    await api.ProtectedBranches.protect(project.id, "main");
    const user = await createUser(suite.server);
    await api.ProjectMembers.add(project.id, 30, { userId: user.id });

    const projectEvents: any[] = await api.AuditEvents.all({ projectId: project.id });
    expect(projectEvents.map((e) => e.event_name)).toEqual(["member_created", "protected_branch_created"]);
    expect(projectEvents[0]).toMatchObject({ entity_type: "Project", entity_id: project.id, details: { add: "user_access", as: "Developer" } });
    const shown: any = await api.AuditEvents.show(projectEvents[0].id, { projectId: project.id });
    expect(shown).toEqual(projectEvents[0]);
    const instance: any[] = await api.AuditEvents.all({ entityType: "Project", entityId: project.id });
    expect(instance.map((e) => e.id)).toEqual(projectEvents.map((e) => e.id));
    const groupEvents: any[] = await api.AuditEvents.all({ groupId: group.id });
    expect(groupEvents.every((e) => e.entity_type === "Group" && e.entity_id === group.id)).toBe(true);
    const keyset: any[] = await api.AuditEvents.all({ projectId: project.id, pagination: "keyset", orderBy: "id", sort: "desc", perPage: 1 } as any);
    expect(keyset.map((e) => e.id)).toEqual(projectEvents.map((e) => e.id));

    expect(await failure(gitlab(user.token).AuditEvents.all())).toMatchObject({ status: 403 });
    expect(await failure(gitlab(user.token).AuditEvents.all({ groupId: group.id }))).toMatchObject({ status: 403 });
    expect(await failure(api.AuditEvents.show(999999999))).toMatchObject({ status: 404 });
  });
});

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab audit events e2e test: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab audit events (SKIPPED: ${unavailable})` : "python-gitlab audit events", () => {
  it("lists and gets audit events through the client's managers, keyset pages included", async () => {
    const user = await createUser(suite.server);
    const out = await runPython("audit_events.py", suite.server, { TAG: uniqueName("pyae").toLowerCase().replace(/_/g, "-"), USER_TOKEN: user.token });
    expect(out.project).toEqual(["webhook_destroyed", "webhook_created", "protected_branch_created"]);
    expect(out.instance).toEqual(out.project_ids);
    expect(out.keyset).toEqual(out.project_ids);
    expect(out.one).toMatchObject({ id: out.project_ids[0], entity_type: "Project", entity_id: out.project_id, event_name: "webhook_destroyed" });
    expect(out.instance_one).toBe(out.project_ids[0]);
    expect(out.errors).toEqual({
      instance: { type: "GitlabListError", response_code: 403, error_message: "403 Forbidden" },
      project: { type: "GitlabListError", response_code: 403, error_message: "403 Forbidden" },
      missing: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
    });
  });
});
