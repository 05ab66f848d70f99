// Emoji reactions through /api/v4, beyond the actor matrix (award-emoji.test.ts): names (aliases,
// unknown and blank names, duplicates), bad path params, unknown and mismatched ids, pagination,
// If-Unmodified-Since, GitLab's visibility rules (confidential issues, internal notes, feature
// access, private snippets), who may react (locked discussions, archived projects, system notes),
// upvotes/downvotes, and the `emoji` domain event inside the transaction.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { subscribe, type EmojiEvent } from "../../src/domain/shared/events.js";
import { parseLinks } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { AWARDABLE_KINDS, awardEmoji, awardEmojiPath, type AwardableKind, type AwardableTarget } from "../helpers/award-emoji.js";
import { AWARD_EMOJI_NOT_FOUND, NOT_FOUND, PROJECT_NOT_FOUND } from "../helpers/errors.js";
import { addMember, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let project: any;

/** A fresh issue, merge request or snippet in the public project, and a note on it. */
async function freshAwardable(kind: AwardableKind, projectId = project.id) {
  const awardable =
    kind === "issues"
      ? await createIssue(owner.api, projectId).then((i) => ({ ref: i.iid, id: i.id }))
      : kind === "merge_requests"
        ? await createMergeRequest(owner.api, projectId).then((mr) => ({ ref: mr.iid, id: mr.id }))
        : await createSnippet(owner.api, projectId).then((s) => ({ ref: s.id, id: s.id }));
  const note = await createNote(owner.api, projectId, kind, awardable.ref);
  const target: AwardableTarget = { projectId, kind, ref: awardable.ref };
  return { ...awardable, target, noteTarget: { ...target, noteId: note.id } as AwardableTarget, noteId: note.id };
}

const namesOn = async (target: AwardableTarget) => (await t.root.get(awardEmojiPath(target))).body.map((r: any) => r.name);

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  ({ owner, guest, reporter, nonMember: stranger } = team);
  project = await createTeamProject(team, { visibility: "public" });
});

describe.each(AWARDABLE_KINDS)("names on %s (and their notes)", (kind) => {
  it.each([false, true])("stores aliases under GitLab's name, refuses duplicates (on a note: %s)", async (onNote) => {
    const fresh = await freshAwardable(kind);
    const target = onNote ? fresh.noteTarget : fresh.target;
    const aliases = [
      ["+1", "thumbsup"],
      ["-1", "thumbsdown"],
      ["satisfied", "laughing"],
      ["facepalm", "face_palm"],
      ["email", "e-mail"],
    ];
    for (const [sent, stored] of aliases) expect((await awardEmoji(stranger.api, target, sent)).name).toBe(stored);
    for (const name of ["smile", "tada", "100", "8ball"]) expect((await awardEmoji(stranger.api, target, name)).name).toBe(name);
    for (const name of ["thumbsup", "+1", "tada"]) {
      const res = await stranger.api.post(awardEmojiPath(target), { name });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Award Emoji Name has already been taken Not Found" });
    }
    // another user may react with the same emoji
    expect((await awardEmoji(guest.api, target, "+1")).name).toBe("thumbsup");
    expect(await namesOn(target)).toEqual(["thumbsup", "thumbsdown", "laughing", "face_palm", "e-mail", "smile", "tada", "100", "8ball", "thumbsup"]);
  });

  it("refuses unknown and blank names with GitLab's 404 texts, and a missing name with 400", async () => {
    const { target } = await freshAwardable(kind);
    const cases: [unknown, number, object][] = [
      [{ name: "not_an_emoji" }, 404, { message: "404 Award Emoji Name is not a valid emoji name Not Found" }],
      [{ name: ":smile:" }, 404, { message: "404 Award Emoji Name is not a valid emoji name Not Found" }],
      [{ name: "Smile" }, 404, { message: "404 Award Emoji Name is not a valid emoji name Not Found" }],
      [{ name: "" }, 404, { message: "404 Award Emoji Name can't be blank and Name is not a valid emoji name Not Found" }],
      [{}, 400, { error: "name is missing" }],
    ];
    for (const [body, status, error] of cases) {
      const res = await stranger.api.post(awardEmojiPath(target), body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toEqual(error);
    }
    expect(await namesOn(target)).toEqual([]);
  });
});

describe("bad path params and ids", () => {
  const params: Record<AwardableKind, string> = { issues: "issue_iid", merge_requests: "merge_request_iid", snippets: "snippet_id" };

  it.each(AWARDABLE_KINDS)("answers 400 for non-numeric ids on %s", async (kind) => {
    const { target, noteTarget } = await freshAwardable(kind);
    const award = await awardEmoji(owner.api, target);
    const base = `/projects/${project.id}/${kind}`;
    const cases: [string, string, string][] = [
      ["GET", `${base}/abc/award_emoji`, `${params[kind]} is invalid`],
      ["POST", `${base}/1.5/award_emoji`, `${params[kind]} is invalid`],
      ["GET", `${awardEmojiPath(target)}/abc`, "award_id is invalid"],
      ["DELETE", `${awardEmojiPath(target)}/abc`, "award_id is invalid"],
      ["GET", `${base}/${target.ref}/notes/abc/award_emoji`, "note_id is invalid"],
      ["GET", `${awardEmojiPath(noteTarget)}/x1`, "award_id is invalid"],
    ];
    for (const [method, path, error] of cases) {
      const res = await owner.api.request(method, path, method === "POST" ? { json: { name: "smile" } } : {});
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body).toEqual({ error });
    }
    expect((await owner.api.get(`${awardEmojiPath(target)}/${award.id}`)).status).toBe(200);
  });

  it.each(AWARDABLE_KINDS)("answers 404 Not found for unknown or mismatched ids on %s", async (kind) => {
    const one = await freshAwardable(kind);
    const other = await freshAwardable(kind);
    const award = await awardEmoji(owner.api, one.target);
    const noteAward = await awardEmoji(owner.api, one.noteTarget);
    const notFound: [string, string][] = [
      ["GET", awardEmojiPath({ ...one.target, ref: 999999 })],
      ["POST", awardEmojiPath({ ...one.target, ref: 999999 })],
      ["GET", `${awardEmojiPath(one.target)}/999999`],
      ["DELETE", `${awardEmojiPath(one.target)}/999999`],
      // a reaction of another awardable, or of the awardable's own note
      ["GET", `${awardEmojiPath(other.target)}/${award.id}`],
      ["DELETE", `${awardEmojiPath(other.target)}/${award.id}`],
      ["GET", `${awardEmojiPath(one.target)}/${noteAward.id}`],
      ["GET", `${awardEmojiPath(one.noteTarget)}/${award.id}`],
      // unknown note, and a note of another issue / MR / snippet
      ["GET", awardEmojiPath({ ...one.target, noteId: 999999 })],
      ["POST", awardEmojiPath({ ...one.target, noteId: 999999 })],
      ["GET", awardEmojiPath({ ...one.target, noteId: other.noteId })],
      ["POST", awardEmojiPath({ ...one.target, noteId: other.noteId })],
      ["DELETE", `${awardEmojiPath({ ...other.target, noteId: one.noteId })}/${noteAward.id}`],
    ];
    for (const [method, path] of notFound) {
      const res = await owner.api.request(method, path, method === "POST" ? { json: { name: "smile" } } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual(NOT_FOUND);
    }
    const unknownProject = await owner.api.get(awardEmojiPath({ ...one.target, projectId: 999999 }));
    expect(unknownProject.body).toEqual(PROJECT_NOT_FOUND);
    expect(await namesOn(one.target)).toEqual(["thumbsup"]);
    expect(await namesOn(one.noteTarget)).toEqual(["thumbsup"]);
  });

  it("takes the project by its full path, and a second DELETE answers 404", async () => {
    const { target } = await freshAwardable("issues", project.path_with_namespace);
    const award = await awardEmoji(owner.api, target);
    expect(award.awardable_type).toBe("Issue");
    expect((await owner.api.delete(`${awardEmojiPath(target)}/${award.id}`)).status).toBe(204);
    const again = await owner.api.delete(`${awardEmojiPath(target)}/${award.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });

  it("honours If-Unmodified-Since on DELETE (412 when the reaction is newer)", async () => {
    const { target } = await freshAwardable("snippets");
    const award = await awardEmoji(owner.api, target);
    const stale = await owner.api.delete(`${awardEmojiPath(target)}/${award.id}`, {
      headers: { "If-Unmodified-Since": new Date(Date.parse(award.updated_at) - 60_000).toUTCString() },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ message: "412 Precondition Failed" });
    const fresh = await owner.api.delete(`${awardEmojiPath(target)}/${award.id}`, {
      headers: { "If-Unmodified-Since": new Date(Date.parse(award.updated_at) + 60_000).toUTCString() },
    });
    expect(fresh.status).toBe(204);
  });
});

describe("pagination", () => {
  it("pages reactions by id with GitLab's headers and links", async () => {
    const { noteTarget } = await freshAwardable("merge_requests");
    const names = ["smile", "tada", "rocket", "eyes", "heart"];
    const ids: number[] = [];
    for (const name of names) ids.push((await awardEmoji(owner.api, noteTarget, name)).id);
    const res = await t.anon.get(awardEmojiPath(noteTarget), { query: { page: 2, per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => r.id)).toEqual(ids.slice(2, 4));
    expect(Object.fromEntries(["x-page", "x-per-page", "x-total", "x-total-pages", "x-next-page", "x-prev-page"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "x-page": "2",
      "x-per-page": "2",
      "x-total": "5",
      "x-total-pages": "3",
      "x-next-page": "3",
      "x-prev-page": "1",
    });
    const links = parseLinks(res.headers.get("link"));
    expect(Object.keys(links)).toEqual(["prev", "next", "first", "last"]);
    expect(new URL(links.next!).searchParams.get("page")).toBe("3");
    const last = await t.anon.get(awardEmojiPath(noteTarget), { query: { page: 3, per_page: 2 } });
    expect(last.body.map((r: any) => r.name)).toEqual(["heart"]);
    expect(last.headers.get("x-next-page")).toBe("");
    const all = await t.anon.get(awardEmojiPath(noteTarget), { query: { per_page: 500 } });
    expect(all.headers.get("x-per-page")).toBe("100");
    expect(all.body.map((r: any) => r.name)).toEqual(names);
  });
});

describe("who may read and react", () => {
  const expectHidden = (res: { status: number; body: unknown }) => {
    expect(res.status).toBe(404);
    expect(res.body).toEqual(AWARD_EMOJI_NOT_FOUND);
  };

  it("hides a confidential issue's reactions from non-members and Guests, not from Reporters or its assignee", async () => {
    const issue = await createIssue(owner.api, project.id, { confidential: true });
    const other = await createUser(t);
    await addMember(owner.api, "projects", project.id, other.id, 10);
    await owner.api.put(`/projects/${project.id}/issues/${issue.iid}`, { assignee_ids: [other.id] });
    const note = await createNote(owner.api, project.id, "issues", issue.iid);
    for (const target of [{ projectId: project.id, kind: "issues", ref: issue.iid }, { projectId: project.id, kind: "issues", ref: issue.iid, noteId: note.id }] as AwardableTarget[]) {
      const award = await awardEmoji(owner.api, target);
      for (const api of [t.anon, stranger.api, guest.api]) {
        expectHidden(await api.get(awardEmojiPath(target)));
        expectHidden(await api.get(`${awardEmojiPath(target)}/${award.id}`));
        expectHidden(await api.post(awardEmojiPath(target), { name: "eyes" }));
      }
      for (const api of [reporter.api, other.api]) {
        expect((await api.get(awardEmojiPath(target))).status).toBe(200);
        expect((await api.post(awardEmojiPath(target), { name: "eyes" })).status).toBe(201);
      }
    }
  });

  it("hides an internal note's reactions from everyone below Reporter", async () => {
    const { target } = await freshAwardable("issues");
    const note = await createNote(owner.api, project.id, "issues", target.ref, { internal: true });
    const noteTarget = { ...target, noteId: note.id };
    const award = await awardEmoji(reporter.api, noteTarget);
    for (const api of [t.anon, stranger.api, guest.api]) {
      expectHidden(await api.get(awardEmojiPath(noteTarget)));
      expectHidden(await api.get(`${awardEmojiPath(noteTarget)}/${award.id}`));
      expectHidden(await api.post(awardEmojiPath(noteTarget), { name: "eyes" }));
    }
    expect((await owner.api.get(awardEmojiPath(noteTarget))).body.map((r: any) => r.id)).toEqual([award.id]);
  });

  it("follows the project's feature access and a snippet's own visibility", async () => {
    const other = await createProject(owner.api, { visibility: "public" });
    await addMember(owner.api, "projects", other.id, guest.id, 10);
    const issue = await freshAwardable("issues", other.id);
    const privateSnippet = await createSnippet(owner.api, other.id, { visibility: "private" });
    const snippetTarget: AwardableTarget = { projectId: other.id, kind: "snippets", ref: privateSnippet.id };
    await awardEmoji(owner.api, snippetTarget);
    expectHidden(await stranger.api.get(awardEmojiPath(snippetTarget)));
    expectHidden(await stranger.api.post(awardEmojiPath(snippetTarget), { name: "eyes" }));
    expect((await guest.api.post(awardEmojiPath(snippetTarget), { name: "eyes" })).status).toBe(201);

    const update = await owner.api.put(`/projects/${other.id}`, { issues_access_level: "private" });
    expect(update.status, update.text).toBe(200);
    for (const target of [issue.target, issue.noteTarget]) {
      expectHidden(await t.anon.get(awardEmojiPath(target)));
      expectHidden(await stranger.api.post(awardEmojiPath(target), { name: "eyes" }));
      expect((await guest.api.post(awardEmojiPath(target), { name: "eyes" })).status).toBe(201);
    }
  });

  it.each(["issues", "merge_requests"] as const)("lets only project members react in a locked discussion (%s)", async (kind) => {
    const fresh = await freshAwardable(kind);
    const locked = await owner.api.put(`/projects/${project.id}/${kind}/${fresh.ref}`, { discussion_locked: true });
    expect(locked.body.discussion_locked).toBe(true);
    for (const target of [fresh.target, fresh.noteTarget]) {
      expect((await stranger.api.get(awardEmojiPath(target))).status).toBe(200);
      expectHidden(await stranger.api.post(awardEmojiPath(target), { name: "eyes" }));
      // administrators who are not members are refused too, as in GitLab
      expectHidden(await t.root.post(awardEmojiPath(target), { name: "eyes" }));
      expect((await guest.api.post(awardEmojiPath(target), { name: "eyes" })).status).toBe(201);
    }
  });

  it("refuses reactions in an archived project but still shows and removes them", async () => {
    const archived = await createProject(owner.api, { visibility: "public" });
    const fresh = await freshAwardable("issues", archived.id);
    const award = await awardEmoji(owner.api, fresh.target);
    expect((await owner.api.put(`/projects/${archived.id}`, { archived: true })).status).toBe(200);
    for (const api of [owner.api, t.root, stranger.api]) expectHidden(await api.post(awardEmojiPath(fresh.target), { name: "eyes" }));
    expect((await t.anon.get(awardEmojiPath(fresh.target))).body.map((r: any) => r.id)).toEqual([award.id]);
    expect((await owner.api.delete(`${awardEmojiPath(fresh.target)}/${award.id}`)).status).toBe(204);
  });

  it("refuses reactions on system notes", async () => {
    const { target } = await freshAwardable("issues");
    const issue = (await owner.api.get(`/projects/${project.id}/issues/${target.ref}`)).body;
    // no endpoint writes system notes: one as GitLab records a change
    const systemNote = await t.services.db.note.create({
      data: { projectId: project.id, noteableType: "Issue", noteableId: issue.id, authorId: owner.id, body: "changed the description", system: true },
    });
    const res = await owner.api.post(awardEmojiPath({ ...target, noteId: systemNote.id }), { name: "eyes" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Award Emoji Awardable cannot be awarded emoji Not Found" });
    expect((await t.anon.get(awardEmojiPath({ ...target, noteId: systemNote.id }))).body).toEqual([]);
  });
});

describe("upvotes and downvotes", () => {
  it.each(["issues", "merge_requests"] as const)("counts thumbsup and thumbsdown on %s", async (kind) => {
    const fresh = await freshAwardable(kind);
    await awardEmoji(owner.api, fresh.target, "+1");
    await awardEmoji(guest.api, fresh.target, "thumbsup");
    await awardEmoji(stranger.api, fresh.target, "-1");
    await awardEmoji(stranger.api, fresh.target, "tada");
    await awardEmoji(reporter.api, fresh.noteTarget, "thumbsup"); // a note's reactions do not count
    const one = await t.anon.get(`/projects/${project.id}/${kind}/${fresh.ref}`);
    expect(one.body).toMatchObject({ upvotes: 2, downvotes: 1 });
    const list = await t.anon.get(`/projects/${project.id}/${kind}`, { query: { per_page: 100 } });
    expect(list.body.find((row: any) => row.iid === fresh.ref)).toMatchObject({ upvotes: 2, downvotes: 1 });
  });
});

describe("the emoji domain event", () => {
  const events: EmojiEvent[] = [];
  let failFor: number | null = null;
  beforeAll(() =>
    subscribe("emoji", async (_tx, event) => {
      if (event.awardableId === failFor) throw new Error("subscriber failed");
      events.push(event);
    }),
  );
  afterEach(() => {
    events.length = 0;
    failFor = null;
  });

  it("is published on award and on revoke, with the canonical name and who acted", async () => {
    const fresh = await freshAwardable("snippets");
    const award = await awardEmoji(guest.api, fresh.noteTarget, "+1");
    expect(events).toEqual([
      { action: "award", awardableType: "Note", awardableId: fresh.noteId, projectId: project.id, awardEmojiId: award.id, name: "thumbsup", userId: guest.id, actorId: guest.id },
    ]);
    expect((await t.root.delete(`${awardEmojiPath(fresh.noteTarget)}/${award.id}`)).status).toBe(204);
    const admin = (await t.root.get("/user")).body;
    expect(events[1]).toEqual({ ...events[0], action: "revoke", actorId: admin.id });
    expect(events).toHaveLength(2);
  });

  it("commits or rolls back with the reaction", async () => {
    const fresh = await freshAwardable("issues");
    const kept = await awardEmoji(owner.api, fresh.target, "smile");
    events.length = 0;
    failFor = fresh.id;
    expect((await owner.api.post(awardEmojiPath(fresh.target), { name: "tada" })).status).toBe(500);
    expect((await owner.api.delete(`${awardEmojiPath(fresh.target)}/${kept.id}`)).status).toBe(500);
    expect(await namesOn(fresh.target)).toEqual(["smile"]);
    expect(events).toEqual([]);
  });

  it("is not published for refused reactions", async () => {
    const fresh = await freshAwardable("merge_requests");
    await awardEmoji(owner.api, fresh.target, "smile");
    events.length = 0;
    await owner.api.post(awardEmojiPath(fresh.target), { name: "smile" });
    await owner.api.post(awardEmojiPath(fresh.target), { name: "nope_not_emoji" });
    await t.anon.post(awardEmojiPath(fresh.target), { name: "eyes" });
    expect(events).toEqual([]);
  });
});
