// python-gitlab 3.12 against the real server: branches, commits with file actions and protected
// branches (test/e2e/python/repository.py prints what the client saw).
import { describe, expect, it } from "vitest";
import { createUser } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";
import { uniqueName } from "./helpers/fixtures.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab repository e2e test: ${unavailable}`);
const title = unavailable ? `python-gitlab repository (SKIPPED: ${unavailable})` : "python-gitlab repository";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("branches, commits and protected branches", async () => {
    const owner = await createUser(suite.server);
    const developer = await createUser(suite.server);
    const project = await owner.api.post("/projects", { name: uniqueName("pyrepo"), initialize_with_readme: true });
    expect(project.status).toBe(201);
    expect((await owner.api.post(`/projects/${project.body.id}/members`, { user_id: developer.id, access_level: 30 })).status).toBe(201);

    const out = await runPython("repository.py", suite.server, { PROJECT_ID: String(project.body.id), DEV_TOKEN: developer.token }, owner.token);

    const initial = out.main.commit_id;
    expect(out.main).toEqual({ name: "main", default: true, protected: false, can_push: true, commit_id: initial });
    expect(out.created).toEqual({ name: "feature/py", default: false, protected: false, can_push: true, commit_id: initial });
    expect(out.fetched).toEqual(out.created);
    expect(out.listed).toEqual(["feature/py", "main"]);

    expect(out.commit).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/), short_id: out.commit.id.slice(0, 8), title: "Add from python", message: "Add from python\n\nbody",
      parent_ids: [initial], author_name: `User ${developer.username}`, committer_name: `User ${developer.username}`,
      stats: { additions: 3, deletions: 0, total: 3 }, project_id: project.body.id,
    });
    expect(out.second).toEqual({
      id: expect.any(String), parent_ids: [out.commit.id], author_name: "Py Author", author_email: "py@example.com",
      committer_name: `User ${developer.username}`,
    });
    expect(out.history).toEqual([out.second.id, out.commit.id, initial]);
    expect(out.shown).toEqual({ id: out.commit.id, title: "Add from python", stats: out.commit.stats });

    expect(out.protected).toEqual({
      name: "feature/*",
      push: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", deploy_key_id: null, user_id: null, group_id: null }],
      merge: [{ id: expect.any(Number), access_level: 30, access_level_description: "Developers + Maintainers", user_id: null, group_id: null }],
    });
    expect(out.protected_listed).toEqual(["feature/*"]);
    expect(out.protected_get).toBe("feature/*");

    expect(out.errors).toEqual({
      dev_push_protected: { type: "GitlabCreateError", response_code: 403, error_message: "403 Forbidden - You are not allowed to push into this branch" },
      duplicate_protection: { type: "GitlabCreateError", response_code: 409, error_message: "Protected branch 'feature/*' already exists" },
      dev_protect: { type: "GitlabCreateError", response_code: 403, error_message: "403 Forbidden" },
      missing_file: { type: "GitlabCreateError", response_code: 400, error_message: "A file with this name doesn't exist" },
      unknown_action: { type: "GitlabCreateError", response_code: 400, error_message: "actions[0][action] does not have a valid value" },
      duplicate_branch: { type: "GitlabCreateError", response_code: 400, error_message: "Branch already exists" },
      unknown_commit: { type: "GitlabGetError", response_code: 404, error_message: "404 Commit Not Found" },
    });
    expect(out.after_unprotect).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Not found" });
    expect(out.after_delete).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Branch Not Found" });
  });
});
