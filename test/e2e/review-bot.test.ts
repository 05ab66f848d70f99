// A review bot against the real server process, driven by @gitbeaker/rest 43.8: it reads a merge
// request's diff_refs and diffs, finds an added line in the diff text, starts a thread on it
// (MergeRequestDiscussions.create with a position, which gitbeaker sends form-encoded as
// position[...]), edits and deletes its note, and reads the diff versions the position names.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

/** The first added line of a diff text: its new line number and its text, from the hunk headers. */
function firstAddedLine(diff: string): { newLine: number; text: string } | null {
  let newLine = 0;
  for (const line of diff.split("\n")) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) newLine = Number(hunk[1]);
    else if (line.startsWith("+")) return { newLine, text: line.slice(1) };
    else if (line.startsWith(" ")) newLine++;
  }
  return null;
}

describe("a review bot with gitbeaker", () => {
  it("reads diff_refs and diffs, comments on an added line, edits and deletes its note", async () => {
    const root = gitlab();
    const bot = await createUser(suite.server);
    const project = await root.Projects.create({ name: uniqueName("gbbot"), visibility: "private", initializeWithReadme: true });
    await root.ProjectMembers.add(project.id, 20, { userId: bot.id });
    await root.Commits.create(project.id, "main", "Add app.py", [{ action: "create", filePath: "app.py", content: "def main():\n    return 1\n\n\nmain()\n" }]);
    const branch = uniqueName("feature").replace(/_/g, "-");
    await root.Commits.create(project.id, branch, "Use eval", [{ action: "update", filePath: "app.py", content: "def main():\n    return eval('1')\n\n\nmain()\n" }], { startBranch: "main" });
    const mr = await root.MergeRequests.create(project.id, branch, "main", "Risky change");

    const api = gitlab(bot.token);
    const shown = await api.MergeRequests.show(project.id, mr.iid);
    const refs = shown.diff_refs as { base_sha: string; start_sha: string; head_sha: string };
    const diffs = await api.MergeRequests.allDiffs(project.id, mr.iid);
    const file = diffs.find((d) => d.new_path === "app.py")!;
    const added = firstAddedLine(file.diff as string)!;
    expect(added).toEqual({ newLine: 2, text: "    return eval('1')" });

    const thread = await api.MergeRequestDiscussions.create(project.id, mr.iid, "Avoid eval here.", {
      position: {
        baseSha: refs.base_sha, startSha: refs.start_sha, headSha: refs.head_sha, positionType: "text",
        oldPath: file.old_path as string, newPath: file.new_path as string, newLine: String(added.newLine),
      },
    });
    const note = thread.notes![0]!;
    expect(thread.individual_note).toBe(false);
    expect(note).toMatchObject({
      type: "DiffNote", body: "Avoid eval here.", resolvable: true, author: { id: bot.id },
      position: { ...refs, old_path: "app.py", new_path: "app.py", position_type: "text", old_line: null, new_line: 2, line_range: null },
    });

    const edited = await api.MergeRequestDiscussions.editNote(project.id, mr.iid, thread.id, note.id as number, { body: "Avoid eval here: use int()." });
    expect(edited).toMatchObject({ body: "Avoid eval here: use int().", type: "DiffNote", position: { new_line: 2 } });
    const listed = (await api.MergeRequestDiscussions.all(project.id, mr.iid)).find((d) => d.id === thread.id)!;
    expect(listed.notes).toMatchObject([{ id: note.id, body: "Avoid eval here: use int().", position: { head_sha: refs.head_sha, new_line: 2 } }]);

    const [version] = await api.MergeRequests.allDiffVersions(project.id, mr.iid);
    expect(version).toMatchObject({ head_commit_sha: refs.head_sha, base_commit_sha: refs.base_sha, start_commit_sha: refs.start_sha, state: "collected", real_size: "1" });
    const full = await api.MergeRequests.showDiffVersion(project.id, mr.iid, version!.id as number);
    expect((full.diffs as any[]).map((d) => d.new_path)).toEqual(["app.py"]);

    // a line that is not in the diff: GitLab's 400
    const refused = await failure(api.MergeRequestDiscussions.create(project.id, mr.iid, "Nope", {
      position: { baseSha: refs.base_sha, startSha: refs.start_sha, headSha: refs.head_sha, positionType: "text", oldPath: "app.py", newPath: "app.py", newLine: "1" },
    }));
    expect(refused).toEqual({ status: 400, message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}` });

    await api.MergeRequestDiscussions.removeNote(project.id, mr.iid, thread.id, note.id as number);
    expect(await failure(api.MergeRequestDiscussions.show(project.id, mr.iid, thread.id))).toEqual({ status: 404, message: "404 Discussion Not Found" });
  });
});
