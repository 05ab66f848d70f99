// python-gitlab 3.12 driving labels and milestones against the real server
// (test/e2e/python/labels_milestones.py): project and group labels (create, list, search, save,
// priority, subscribe, promote, delete) and milestones (create, list, close, issues and merge
// requests, promote, delete), with the client's errors on refusals.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab labels and milestones e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab labels and milestones (SKIPPED: ${unavailable})` : "python-gitlab labels and milestones";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("labels and milestones from creation to deletion, promotions included", async () => {
    const [developer, guest] = [await createUser(suite.server), await createUser(suite.server)];
    const out = await runPython("labels_milestones.py", suite.server, {
      TAG: uniqueName("pylm").toLowerCase(), DEV_ID: String(developer.id), DEV_TOKEN: developer.token, GUEST_ID: String(guest.id), GUEST_TOKEN: guest.token,
    });
    const forbidden = (type: string) => ({ type, response_code: 403, error_message: "403 Forbidden" });
    expect(out.created).toEqual({ name: "bug", color: "#FF0000", priority: 2, is_project_label: true });
    expect(out.guest_create).toEqual(forbidden("GitlabCreateError"));
    expect(out.taken).toEqual({ type: "GitlabCreateError", response_code: 409, error_message: "Label already exists" });
    expect(out.listed).toEqual([["area", false], ["bug", true]]);
    expect(out.searched).toEqual(["area"]);
    expect(out.saved).toEqual({ name: "defect", priority: 5 });
    // a priority alone on the group's label, from a project Developer who has no role in the group
    expect(out.prioritised).toMatchObject({ name: "area", color: "#ff0000", priority: 1 });
    expect(out.group_label_after).toBe("#ff0000");
    expect(out.dev_group_label_change).toEqual(forbidden("GitlabUpdateError"));
    expect([out.subscribed, out.unsubscribed, out.group_subscribed]).toEqual([true, false, true]);
    expect(out.subscribe_again).toEqual({ type: "GitlabSubscribeError", response_code: 304, error_message: "" });
    expect(out.group_saved).toBe("everyone");
    expect(out.promoted).toBe("feature");
    expect(out.group_labels).toEqual(["area", "feature"]);
    expect(out.dev_delete_group_label).toEqual(forbidden("GitlabDeleteError"));
    expect(out.after_delete).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Label Not Found" });
    expect(out.left).toEqual(["feature"]);

    expect([out.active, out.closed]).toEqual([["v1.0"], ["v2.0"]]);
    expect(out.guest_milestone).toEqual(forbidden("GitlabCreateError"));
    expect(out.milestone_issues).toEqual([1]);
    expect(out.milestone_mrs).toEqual([1]);
    expect(out.dev_promote).toEqual(forbidden("GitlabPromoteError"));
    expect(out.promote).toBe(200);
    expect(out.group_milestones).toEqual([{ title: "v1.0", description: "first", due_date: "2031-01-31" }]);
    expect(out.sibling_milestones).toEqual([]);
    expect([out.issue_milestone, out.twin_issue_milestone, out.mr_milestone]).toEqual([true, true, true]);
    expect(out.promote_again).toEqual({ type: "GitlabPromoteError", response_code: 404, error_message: "404 Not found" });
    expect(out.after_milestone_delete).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Not found" });
    expect(out.issue_after_group_delete).toBeNull();
  });
});
