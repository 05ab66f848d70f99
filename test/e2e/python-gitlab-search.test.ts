// python-gitlab 3.12 searching the real server (test/e2e/python/search.py): gl.search, group.search
// and project.search per scope, for an outsider, a Developer of a private project and the
// administrator, and the client's errors (the fixtures: helpers/search-fixtures.ts).
import { describe, expect, it } from "vitest";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { createSearchFixtures } from "./helpers/search-fixtures.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab search e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab search (SKIPPED: ${unavailable})` : "python-gitlab search";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("finds per caller what each may read, at the instance, a group and a project", async () => {
    const f = await createSearchFixtures(suite.server);
    const out = await runPython("search.py", suite.server, {
      TERM_WORD: f.term, OUTSIDER_TOKEN: f.outsider.token, MEMBER_TOKEN: f.member.token, MEMBER_USERNAME: f.member.username,
      GROUP_ID: String(f.groupId), PUBLIC_ID: String(f.publicProjectId), PRIVATE_ID: String(f.privateProjectId),
    });
    const [open, leak, hidden] = [`The ${f.term} crash`, `A ${f.term} leak`, `Private ${f.term} work`];
    expect(out.issues).toEqual({ outsider: [open], member: [hidden, open], admin: [leak, hidden, open] });
    expect(out.group).toEqual({
      projects: [f.publicProjectId], issues: [open], merge_requests: [`Parse ${f.term} input`], milestones: [`${f.term} release`],
    });
    expect(out.project).toEqual({
      notes: [`Reproduced the ${f.term} crash`],
      commits: [`Handle ${f.term} input`],
      blobs: [["README.md", "main"], ["docs/notes.md", "main"]],
      private_as_member: [hidden],
    });
    expect(out.users).toEqual([f.member.id]);
    expect(out.all_pages).toBe(3);
    expect(out.private_as_outsider).toEqual({ type: "GitlabSearchError", response_code: 404, error_message: "404 Project Not Found" });
    expect(out.bad_scope).toEqual({ type: "GitlabSearchError", response_code: 400, error_message: "scope does not have a valid value" });
  });
});
