// Notes through /api/v4 on each noteable kind (issues and merge requests by iid, project snippets
// by id): every endpoint per actor (anonymous, non-member, guest, reporter, developer, maintainer,
// owner, admin) on public and private projects, internal notes, confidential issues, locked
// discussions, archived projects, notes of another noteable, bad input, ordering and pagination.
import { beforeAll, describe, expect, it } from "vitest";
import { subscribe, type NoteEvent } from "../../src/domain/shared/events.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, NOTE_NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet, type NoteableKind } from "../helpers/snippets-notes.js";
import { createTeamProject, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let developer: TestUser;
let maintainer: TestUser;
let outsider: TestUser;
let publicProject: any;
let privateProject: any;

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Parent {
  kind: NoteableKind;
  /** the path param: iid of an issue or merge request, id of a snippet */
  ref: number;
  /** global id (the note's noteable_id) */
  id: number;
  project: any;
}

const NOTEABLE_TYPE = { issues: "Issue", merge_requests: "MergeRequest", snippets: "Snippet" } as const;

/** A fresh issue, merge request or (public) snippet made by the owner. */
async function makeParent(kind: NoteableKind, project: any, fields: Record<string, unknown> = {}): Promise<Parent> {
  if (kind === "issues") {
    const issue = await createIssue(owner.api, project.id, fields);
    return { kind, ref: issue.iid, id: issue.id, project };
  }
  if (kind === "merge_requests") {
    const mr = await createMergeRequest(owner.api, project.id, fields);
    return { kind, ref: mr.iid, id: mr.id, project };
  }
  const snippet = await createSnippet(owner.api, project.id, { visibility: "public", ...fields });
  return { kind, ref: snippet.id, id: snippet.id, project };
}

const notesPath = (p: Parent) => `/projects/${p.project.id}/${p.kind}/${p.ref}/notes`;
const notePath = (p: Parent, note: { id: number }) => `${notesPath(p)}/${note.id}`;
const ids = (body: any[]) => body.map((n) => n.id);
/** The note JSON without `award_emoji`, which the emoji reactions area may add to the type. */
const withoutAwards = ({ award_emoji: _awards, ...rest }: any) => rest;

/** The entity GitLab renders for a plain (non-diff, non-system) note. */
function entity(p: Parent, author: TestUser, fields: { id: number; body: string; internal?: boolean }) {
  return {
    id: fields.id,
    type: null,
    body: fields.body,
    attachment: null,
    author: {
      id: author.id,
      username: author.username,
      name: `User ${author.username}`,
      state: "active",
      locked: false,
      avatar_url: expect.any(String),
      web_url: `${BASE_URL}/${author.username}`,
    },
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: expect.stringMatching(TIMESTAMP),
    system: false,
    noteable_id: p.id,
    noteable_type: NOTEABLE_TYPE[p.kind],
    project_id: p.project.id,
    resolvable: false,
    confidential: fields.internal ?? false,
    internal: fields.internal ?? false,
    imported: false,
    imported_from: "none",
    noteable_iid: p.kind === "snippets" ? null : p.ref,
    commands_changes: {},
  };
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ owner, guest, reporter, developer, maintainer, nonMember: outsider, publicProject, privateProject } = team);
});

const members = () => [
  ["guest", guest.api],
  ["reporter", reporter.api],
  ["developer", developer.api],
  ["maintainer", maintainer.api],
  ["owner", owner.api],
  ["admin", t.root],
] as const;

describe.each(["issues", "merge_requests", "snippets"] as const)("notes on %s", (kind) => {
  let pub: Parent;
  let priv: Parent;

  beforeAll(async () => {
    pub = await makeParent(kind, publicProject);
    priv = await makeParent(kind, privateProject);
  });

  describe("POST", () => {
    it("creates a note: 201 with GitLab's entity", async () => {
      const res = await developer.api.post(notesPath(pub), { body: "Looks good" });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(withoutAwards(res.body)).toEqual(entity(pub, developer, { id: res.body.id, body: "Looks good" }));
    });

    it("lets every member, the admin and (on public projects) non-members comment", async () => {
      for (const [who, api] of [...members(), ["non-member", outsider.api] as const]) {
        const res = await api.post(notesPath(pub), { body: `from ${who}` });
        expect(res.status, `${who}: ${res.text}`).toBe(201);
        expect(res.body.body).toBe(`from ${who}`);
      }
    });

    it("on a private project: members who can read the noteable comment, others get 404", async () => {
      // merge requests of private projects are for Reporters and above
      const readers = kind === "merge_requests" ? members().filter(([who]) => who !== "guest") : members();
      for (const [who, api] of readers) expect((await api.post(notesPath(priv), { body: who })).status, who).toBe(201);
      if (kind === "merge_requests") {
        const res = await guest.api.post(notesPath(priv), { body: "guest" });
        expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
      }
      const res = await outsider.api.post(notesPath(priv), { body: "outsider" });
      expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
    });

    it("answers 401 to anonymous callers, before anything else", async () => {
      for (const [path, body] of [[notesPath(pub), { body: "x" }], [notesPath(priv), {}], [`/projects/999999/${kind}/1/notes`, { body: "x" }]] as const) {
        const res = await t.anon.post(path, body);
        expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
      }
    });

    it.each([
      [{}, 400, { error: "body is missing" }],
      [{ body: "" }, 400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }],
      [{ body: "   " }, 400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }],
      [{ body: "x".repeat(1_000_001) }, 400, { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' }],
      [{ body: "x", internal: "maybe" }, 400, { error: "internal is invalid" }],
    ])("answers bad input %#: %s", async (params, status, error) => {
      const res = await developer.api.post(notesPath(pub), params);
      expect([res.status, res.body]).toEqual([status, error]);
    });

    it("answers 404 Not found for an unknown noteable and 400 for a bad ref", async () => {
      const missing = await developer.api.post(`/projects/${publicProject.id}/${kind}/999999/notes`, { body: "x" });
      expect([missing.status, missing.body]).toEqual([404, NOT_FOUND]);
      const bad = await developer.api.post(`/projects/${publicProject.id}/${kind}/abc/notes`, { body: "x" });
      expect(bad.status).toBe(400);
    });

    it("refuses comments in an archived project (403)", async () => {
      const project = await createTeamProject(team, { visibility: "public" });
      const parent = await makeParent(kind, project);
      expect((await t.root.put(`/projects/${project.id}`, { archived: true })).status).toBe(200);
      for (const api of [developer.api, owner.api, t.root]) {
        expect((await api.post(notesPath(parent), { body: "x" })).body).toEqual(FORBIDDEN);
      }
    });

    it("lets Owners and admins backdate a note with created_at; others' created_at is ignored", async () => {
      const backdated = await owner.api.post(notesPath(pub), { body: "old", created_at: "2020-01-02T03:04:05Z" });
      expect([backdated.body.created_at, backdated.body.updated_at]).toEqual(["2020-01-02T03:04:05.000Z", "2020-01-02T03:04:05.000Z"]);
      const ignored = await developer.api.post(notesPath(pub), { body: "new", created_at: "2020-01-02T03:04:05Z" });
      expect(ignored.body.created_at).not.toBe("2020-01-02T03:04:05.000Z");
      const ancient = await owner.api.post(notesPath(pub), { body: "ancient", created_at: "1969-12-31T23:59:59Z" });
      expect([ancient.status, ancient.body]).toEqual([400, { message: '400 Bad request - Note {:created_at=>["The created date provided is too far in the past."]}' }]);
    });
  });

  describe("internal notes", () => {
    it.skipIf(kind === "snippets")("are created by Reporters and above with `internal` or the older `confidential`", async () => {
      for (const params of [{ internal: true }, { confidential: true }]) {
        const res = await reporter.api.post(notesPath(pub), { body: "internal", ...params });
        expect(res.status).toBe(201);
        expect(withoutAwards(res.body)).toEqual(entity(pub, reporter, { id: res.body.id, body: "internal", internal: true }));
      }
    });

    it("from a Guest or a non-member the flag is dropped: an ordinary note", async () => {
      for (const api of [guest.api, outsider.api]) {
        const res = await api.post(notesPath(pub), { body: "not internal", internal: true });
        expect(res.status).toBe(201);
        expect([res.body.internal, res.body.confidential]).toEqual([false, false]);
      }
    });

    it.skipIf(kind !== "snippets")("are refused on snippets (400), as GitLab's Note validation does", async () => {
      const res = await reporter.api.post(notesPath(pub), { body: "internal", internal: true });
      expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - Note {:confidential=>["can not be set for this resource"]}' }]);
    });

    it.skipIf(kind === "snippets")("are hidden from Guests and non-members: left out of lists, 404 when asked for, 403 on change", async () => {
      const parent = await makeParent(kind, publicProject);
      const open = await createNote(developer.api, publicProject.id, kind, parent.ref, { body: "open" });
      const hidden = await createNote(reporter.api, publicProject.id, kind, parent.ref, { body: "hidden", internal: true });
      for (const api of [guest.api, outsider.api]) {
        const list = await api.get(notesPath(parent));
        expect(ids(list.body)).toEqual([open.id]);
        expect(list.headers.get("x-total")).toBe("1");
        const one = await api.get(notePath(parent, hidden));
        expect([one.status, one.body]).toEqual([404, NOTE_NOT_FOUND]);
        expect((await api.put(notePath(parent, hidden), { body: "x" })).body).toEqual(FORBIDDEN);
        expect((await api.delete(notePath(parent, hidden))).body).toEqual(FORBIDDEN);
      }
      for (const api of [reporter.api, developer.api, maintainer.api, owner.api, t.root]) {
        expect(ids((await api.get(notesPath(parent))).body)).toEqual([hidden.id, open.id]);
        expect((await api.get(notePath(parent, hidden))).body.internal).toBe(true);
      }
    });
  });

  describe("GET", () => {
    let parent: Parent;
    let made: any[];

    beforeAll(async () => {
      parent = await makeParent(kind, publicProject);
      made = [];
      for (const [i, api] of [developer.api, guest.api, outsider.api, maintainer.api, developer.api].entries()) {
        made.push(await createNote(api, publicProject.id, kind, parent.ref, { body: `note ${i}` }));
      }
    });

    it("lists the notes, newest first, to every signed-in reader", async () => {
      for (const [who, api] of [...members(), ["non-member", outsider.api] as const]) {
        const res = await api.get(notesPath(parent));
        expect(res.status, who).toBe(200);
        expect(ids(res.body)).toEqual(ids(made).reverse());
        expect(res.headers.get("x-total")).toBe("5");
      }
    });

    it("shows one note with the entity", async () => {
      const res = await guest.api.get(notePath(parent, made[2]));
      expect(res.status).toBe(200);
      expect(withoutAwards(res.body)).toEqual(entity(parent, outsider, { id: made[2].id, body: "note 2" }));
    });

    it("answers 401 to anonymous callers even on public projects", async () => {
      for (const path of [notesPath(parent), notePath(parent, made[0])]) {
        const res = await t.anon.get(path);
        expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
      }
    });

    it("orders by created_at or updated_at, desc or asc, ties by id", async () => {
      const asc = await developer.api.get(notesPath(parent), { query: { sort: "asc" } });
      expect(ids(asc.body)).toEqual(ids(made));
      const edited = await developer.api.put(notePath(parent, made[0]), { body: "edited" });
      expect(edited.status).toBe(200);
      const byUpdate = await developer.api.get(notesPath(parent), { query: { order_by: "updated_at" } });
      expect(ids(byUpdate.body)[0]).toBe(made[0].id);
      for (const [param, value] of [["order_by", "id"], ["sort", "up"], ["activity_filter", "some"]]) {
        const res = await developer.api.get(notesPath(parent), { query: { [param!]: value! } });
        expect([res.status, res.body]).toEqual([400, { error: `${param} does not have a valid value` }]);
      }
    });

    it("filters by activity: only_comments keeps these notes, only_activity (system notes) has none", async () => {
      expect((await developer.api.get(notesPath(parent), { query: { activity_filter: "only_comments" } })).body).toHaveLength(5);
      expect((await developer.api.get(notesPath(parent), { query: { activity_filter: "only_activity" } })).body).toEqual([]);
    });

    it("paginates with GitLab's headers", async () => {
      const res = await developer.api.get(notesPath(parent), { query: { per_page: 2, page: 3, sort: "asc" } });
      expect(ids(res.body)).toEqual([made[4].id]);
      expect(res.headers.get("x-total-pages")).toBe("3");
      expect(res.headers.get("x-prev-page")).toBe("2");
      expect(res.headers.get("x-next-page")).toBe("");
    });

    it("answers 404 Not found for a note of another noteable or an unknown note", async () => {
      const other = await makeParent(kind, publicProject);
      const foreign = await createNote(developer.api, publicProject.id, kind, other.ref);
      for (const api of [developer.api, t.root]) {
        for (const res of [
          await api.get(notePath(parent, foreign)),
          await api.put(notePath(parent, foreign), { body: "x" }),
          await api.delete(notePath(parent, foreign)),
          await api.get(`${notesPath(parent)}/999999`),
        ]) {
          expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
        }
      }
    });

    it("hides notes of a private project from non-members (404 Project)", async () => {
      const note = await createNote(owner.api, privateProject.id, kind, priv.ref);
      for (const path of [notesPath(priv), notePath(priv, note)]) {
        const res = await outsider.api.get(path);
        expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
      }
      const res = await t.root.get(notePath(priv, note));
      expect(res.body.id).toBe(note.id);
    });
  });

  describe("PUT and DELETE", () => {
    it("let the author change and delete their note, and Maintainers, the owner and admins anyone's", async () => {
      const parent = await makeParent(kind, publicProject);
      for (const [who, api] of [["author", guest.api], ["maintainer", maintainer.api], ["owner", owner.api], ["admin", t.root]] as const) {
        const note = await createNote(guest.api, publicProject.id, kind, parent.ref, { body: "mine" });
        const res = await api.put(notePath(parent, note), { body: `changed by ${who}` });
        expect(res.status, who).toBe(200);
        expect(withoutAwards(res.body)).toEqual(entity(parent, guest, { id: note.id, body: `changed by ${who}` }));
        const gone = await api.delete(notePath(parent, note));
        expect([gone.status, gone.text]).toEqual([204, ""]);
        expect((await api.get(notePath(parent, note))).body).toEqual(NOT_FOUND);
      }
    });

    it("refuse everyone else: 403 for members below Maintainer and non-members, 401 anonymous", async () => {
      const parent = await makeParent(kind, publicProject);
      const note = await createNote(maintainer.api, publicProject.id, kind, parent.ref);
      for (const api of [guest.api, reporter.api, developer.api, outsider.api]) {
        expect((await api.put(notePath(parent, note), { body: "x" })).body).toEqual(FORBIDDEN);
        expect((await api.delete(notePath(parent, note))).body).toEqual(FORBIDDEN);
      }
      expect((await t.anon.put(notePath(parent, note), { body: "x" })).body).toEqual(UNAUTHORIZED);
      expect((await t.anon.delete(notePath(parent, note))).body).toEqual(UNAUTHORIZED);
    });

    it("PUT: an empty body is Grape's 400, no body leaves the note as it was", async () => {
      const parent = await makeParent(kind, publicProject);
      const note = await createNote(developer.api, publicProject.id, kind, parent.ref, { body: "same" });
      const empty = await developer.api.put(notePath(parent, note), { body: "" });
      expect([empty.status, empty.body]).toEqual([400, { error: "body is empty" }]);
      const none = await developer.api.put(notePath(parent, note), {});
      expect([none.status, none.body.body, none.body.updated_at]).toEqual([200, "same", note.updated_at]);
    });

    it("DELETE: 412 when the note changed after If-Unmodified-Since", async () => {
      const parent = await makeParent(kind, publicProject);
      const note = await createNote(developer.api, publicProject.id, kind, parent.ref);
      const stale = await developer.api.delete(notePath(parent, note), { headers: { "If-Unmodified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" } });
      expect([stale.status, stale.body]).toEqual([412, { message: "412 Precondition Failed" }]);
      expect((await developer.api.get(notePath(parent, note))).status).toBe(200);
    });
  });

  it("a new note bumps the noteable's updated_at", async () => {
    const parent = await makeParent(kind, publicProject);
    const path = `/projects/${publicProject.id}/${kind}/${parent.ref}`;
    const before = (await t.root.get(path)).body.updated_at;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const note = await createNote(developer.api, publicProject.id, kind, parent.ref);
    const after = (await t.root.get(path)).body.updated_at;
    expect(after > before).toBe(true);
    expect(after >= note.created_at).toBe(true);
  });
});

describe("notes on a confidential issue", () => {
  let issue: Parent;

  beforeAll(async () => {
    issue = await makeParent("issues", publicProject, { confidential: true });
  });

  it("answers a Guest and a non-member 404 Not found, as for an issue they cannot see", async () => {
    for (const api of [guest.api, outsider.api]) {
      for (const res of [await api.post(notesPath(issue), { body: "x" }), await api.get(notesPath(issue))]) {
        expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
      }
    }
  });

  it("lets Reporters and above, and the issue's author, comment", async () => {
    for (const api of [reporter.api, developer.api, maintainer.api, owner.api, t.root]) {
      const res = await api.post(notesPath(issue), { body: "seen" });
      expect(res.status).toBe(201);
      expect(res.body.confidential).toBe(false);
    }
    const guestIssue = await createIssue(guest.api, publicProject.id, { confidential: true });
    const own: Parent = { kind: "issues", ref: guestIssue.iid, id: guestIssue.id, project: publicProject };
    expect((await guest.api.post(notesPath(own), { body: "my own" })).status).toBe(201);
  });
});

describe("private snippets", () => {
  it("take notes from members only; non-members of the public project get 404 Not found", async () => {
    const parent = await makeParent("snippets", publicProject, { visibility: "private" });
    expect((await guest.api.post(notesPath(parent), { body: "member" })).status).toBe(201);
    const res = await outsider.api.post(notesPath(parent), { body: "outsider" });
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
  });
});

describe.each(["issues", "merge_requests"] as const)("a locked discussion on %s", (kind) => {
  it("takes comments and edits from project members only (403 for others, admins included)", async () => {
    const admin = await createUser(t, { admin: true });
    const parent = await makeParent(kind, publicProject);
    const before = await createNote(outsider.api, publicProject.id, kind, parent.ref);
    const lock = await owner.api.put(`/projects/${publicProject.id}/${kind}/${parent.ref}`, { discussion_locked: true });
    expect([lock.status, lock.body.discussion_locked]).toEqual([200, true]);
    for (const api of [outsider.api, admin.api]) {
      expect((await api.post(notesPath(parent), { body: "x" })).body).toEqual(FORBIDDEN);
    }
    expect((await outsider.api.put(notePath(parent, before), { body: "x" })).body).toEqual(FORBIDDEN);
    expect((await outsider.api.get(notePath(parent, before))).status).toBe(200);
    expect((await guest.api.post(notesPath(parent), { body: "member" })).status).toBe(201);
  });
});

describe("projects with a feature for members only", () => {
  it("answer non-members 404 Not found for notes of its issues", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const parent = await makeParent("issues", project);
    expect((await t.root.put(`/projects/${project.id}`, { issues_access_level: "private" })).status).toBe(200);
    const res = await outsider.api.get(notesPath(parent));
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    expect((await guest.api.get(notesPath(parent))).status).toBe(200);
  });
});

describe("the note domain event", () => {
  const events: NoteEvent[] = [];
  subscribe("note", async (_tx, event) => {
    events.push(event);
  });

  it.each(["issues", "merge_requests", "snippets"] as const)("is published on create (create) and on a changed body (update) on %s", async (kind) => {
    const project = await createTeamProject(team, { visibility: "private" });
    const parent =
      kind === "issues" ? (await createIssue(developer.api, project.id)).iid
      : kind === "merge_requests" ? (await createMergeRequest(developer.api, project.id)).iid
      : (await createSnippet(developer.api, project.id)).id;
    const url = `/projects/${project.id}/${kind}/${parent}/notes`;
    events.length = 0;
    const note = (await developer.api.post(url, { body: "first" })).body;
    await developer.api.put(`${url}/${note.id}`, { body: "second" });
    await developer.api.put(`${url}/${note.id}`, { body: "second" });
    await developer.api.delete(`${url}/${note.id}`);
    expect(events).toEqual([
      { action: "create", projectId: project.id, noteId: note.id, actorId: developer.id },
      { action: "update", projectId: project.id, noteId: note.id, actorId: developer.id },
    ]);
  });
});
