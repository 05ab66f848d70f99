// Branches, commits and protected branches against the real server process, driven by
// @gitbeaker/rest 43.8: Branches.create/show/all/remove, Commits.create/all/show (camelCase
// actions snake_cased by the client), ProtectedBranches.create/protect/all/show/unprotect
// (create sends its options as query parameters with a {} JSON body).
import { Gitlab } from "@gitbeaker/rest";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

let owner: E2eUser;
let developer: E2eUser;
let projectId: number;

beforeAll(async () => {
  owner = await createUser(suite.server);
  developer = await createUser(suite.server);
  const project = await gitlab(owner.token).Projects.create({ name: uniqueName("repo"), initializeWithReadme: true });
  projectId = project.id;
  await gitlab(owner.token).ProjectMembers.add(projectId, 30, { userId: developer.id });
});

describe("gitbeaker Branches and Commits", () => {
  it("Branches.create, show, all, remove; names with a slash are encoded by the client", async () => {
    const api = gitlab(developer.token);
    const main = await api.Branches.show(projectId, "main");
    expect(main).toMatchObject({ name: "main", default: true, protected: false, can_push: true, commit: { title: "Initial commit" } });
    const created = await api.Branches.create(projectId, "feature/gb", "main");
    expect(created).toMatchObject({ name: "feature/gb", default: false, commit: { id: main.commit.id } });
    expect(await api.Branches.show(projectId, "feature/gb")).toEqual(created);
    expect((await api.Branches.all(projectId)).map((b) => b.name)).toEqual(["feature/gb", "main"]);
    expect((await api.Branches.all(projectId, { search: "feat" })).map((b) => b.name)).toEqual(["feature/gb"]);
    await api.Branches.remove(projectId, "feature/gb");
    expect(await failure(api.Branches.show(projectId, "feature/gb"))).toEqual({ status: 404, message: "404 Branch Not Found" });
    expect(await failure(api.Branches.create(projectId, "main", "main"))).toEqual({ status: 400, message: "Branch already exists" });
    expect(await failure(api.Branches.create(projectId, "x", "nope"))).toEqual({
      status: 400, message: "Failed to create branch 'x': invalid reference name 'nope'",
    });
    expect(await failure(api.Branches.remove(projectId, "main"))).toEqual({ status: 400, message: "The default branch of a project cannot be deleted." });
  });

  it("Commits.create with actions, start_branch and author; Commits.all and show", async () => {
    const api = gitlab(developer.token);
    const base = (await api.Branches.show(projectId, "main")).commit.id;
    const commit = await api.Commits.create(projectId, "topic/gb", "Add two files", [
      { action: "create", filePath: "src/a.ts", content: "export const a = 1;\n" },
      { action: "create", filePath: "docs/b.md", content: "# B\n\ntext\n" },
    ], { startBranch: "main", authorName: "Jane Doe", authorEmail: "jane@example.com" });
    expect(commit).toMatchObject({
      title: "Add two files", parent_ids: [base], author_name: "Jane Doe", author_email: "jane@example.com",
      committer_name: `User ${developer.username}`, stats: { additions: 4, deletions: 0, total: 4 }, project_id: projectId,
    });
    const next = await api.Commits.create(projectId, "topic/gb", "Move and delete", [
      { action: "move", previousPath: "src/a.ts", filePath: "src/moved.ts" },
      { action: "delete", filePath: "docs/b.md" },
    ]);
    expect(next.parent_ids).toEqual([commit.id]);
    const history = await api.Commits.all(projectId, { refName: "topic/gb" });
    expect(history.map((c) => c.id)).toEqual([next.id, commit.id, base]);
    const shown = await api.Commits.show(projectId, commit.short_id);
    expect(shown).toEqual(commit);
    expect(await failure(api.Commits.create(projectId, "topic/gb", "Again", [{ action: "create", filePath: "src/moved.ts", content: "" }]))).toEqual({
      status: 400, message: "A file with this name already exists",
    });
    expect(await failure(api.Commits.create(projectId, "topic/gb", "Gone", [{ action: "update", filePath: "docs/b.md", content: "x" }]))).toEqual({
      status: 400, message: "A file with this name doesn't exist",
    });
    expect(await failure(api.Commits.show(projectId, "0".repeat(40)))).toEqual({ status: 404, message: "404 Commit Not Found" });
  });
});

describe("gitbeaker ProtectedBranches", () => {
  it("create (query parameters), protect, all, show, unprotect, and the push rule they set", async () => {
    const api = gitlab(owner.token);
    const main = await api.ProtectedBranches.create(projectId, "main", { pushAccessLevel: 40, mergeAccessLevel: 30 });
    expect(main).toMatchObject({
      name: "main",
      push_access_levels: [{ access_level: 40, access_level_description: "Maintainers" }],
      merge_access_levels: [{ access_level: 30, access_level_description: "Developers + Maintainers" }],
      allow_force_push: false,
    });
    const release = await api.ProtectedBranches.protect(projectId, "release/*", { pushAccessLevel: 30, allowForcePush: true });
    expect(release).toMatchObject({ name: "release/*", allow_force_push: true, push_access_levels: [{ access_level: 30 }] });
    expect((await api.ProtectedBranches.all(projectId)).map((p) => p.name)).toEqual(["main", "release/*"]);
    expect(await api.ProtectedBranches.show(projectId, "release/*")).toEqual(release);
    expect(await failure(api.ProtectedBranches.create(projectId, "main"))).toEqual({ status: 409, message: "Protected branch 'main' already exists" });

    const dev = gitlab(developer.token);
    expect(await failure(dev.Commits.create(projectId, "main", "Blocked", [{ action: "create", filePath: "blocked.txt", content: "x" }]))).toEqual({
      status: 403, message: "403 Forbidden - You are not allowed to push into this branch",
    });
    expect((await dev.Branches.show(projectId, "main")).protected).toBe(true);
    expect(await failure(dev.ProtectedBranches.unprotect(projectId, "main"))).toEqual({ status: 403, message: "403 Forbidden" });

    await api.ProtectedBranches.unprotect(projectId, "main");
    expect(await failure(api.ProtectedBranches.show(projectId, "main"))).toEqual({ status: 404, message: "404 Not found" });
    const allowed = await dev.Commits.create(projectId, "main", "Allowed", [{ action: "create", filePath: "allowed.txt", content: "x" }]);
    expect(allowed.title).toBe("Allowed");
  });
});
