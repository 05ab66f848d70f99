// Markdown uploads from both GitLab clients against the real server process: python-gitlab's
// project.upload() (data and file path) and @gitbeaker/rest's ProjectMarkdownUploads (create, all,
// download by id and by secret, remove), and the file served where the markdown links it.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const unavailable = pythonGitlabUnavailable();
const SECRET_URL = (name: string) => new RegExp(`^/uploads/[0-9a-f]{32}/${name.replace(".", "\\.")}$`);

describe("markdown uploads", () => {
  it.skipIf(unavailable !== null)("python-gitlab: project.upload() answers alt, url and markdown; the url serves the file", async () => {
    const out = await runPython("uploads.py", suite.server, { TAG: uniqueName("py-upl").toLowerCase() });
    // python-gitlab keeps alt, url and markdown of GitLab's answer
    expect(out.from_data).toEqual({
      alt: "notes.txt", url: expect.stringMatching(SECRET_URL("notes.txt")), markdown: `[notes.txt](${out.from_data.url})`,
    });
    expect(out.from_path).toMatchObject({ alt: "shot", markdown: `![shot](${out.from_path.url})` });
    expect(out.served).toEqual({ status: 200, text: "release notes\n", type: "text/plain; charset=utf-8" });
    expect(out.anonymous_status).toBe(404);
  });

  it("@gitbeaker/rest: create, list, download by id and by secret, remove", async () => {
    const api = new Gitlab({ host: suite.server.url, token: suite.server.rootToken });
    const project = await api.Projects.create({ name: uniqueName("gb-upl").toLowerCase() });
    const created = await api.ProjectMarkdownUploads.create(project.id, { content: new Blob(["asset bytes"]), filename: "asset.bin" });
    expect(created).toMatchObject({ alt: "asset.bin", url: expect.stringMatching(SECRET_URL("asset.bin")), markdown: `[asset.bin](${created.url})` });
    const listed = await api.ProjectMarkdownUploads.all(project.id);
    expect(listed.map((u) => u.filename)).toEqual(["asset.bin"]);
    const byId = await api.ProjectMarkdownUploads.download(project.id, created.id as number);
    // gitbeaker answers a text file (sent as text/plain, as Workhorse types it) as a string
    expect(byId).toBe("asset bytes");
    const [, , secret] = (created.url as string).split("/");
    const bySecret = await api.ProjectMarkdownUploads.download(project.id, secret!, "asset.bin");
    expect(bySecret).toBe("asset bytes");
    await api.ProjectMarkdownUploads.remove(project.id, created.id as number);
    expect(await api.ProjectMarkdownUploads.all(project.id)).toEqual([]);
  });
});
