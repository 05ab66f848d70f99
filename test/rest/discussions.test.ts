// Discussions through /api/v4 (lib/api/discussions.rb) on issues, merge requests and project
// snippets: threads, replies (an individual note turned into a thread, or refused on snippets),
// thread note edits and deletion, resolving threads and single notes, and the notes' own rules
// (private projects, confidential issues, internal notes, locked discussions) per actor.
import { beforeAll, describe, expect, it } from "vitest";
import { subscribe, type NoteEvent } from "../../src/domain/shared/events.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
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

const HEX40 = /^[0-9a-f]{40}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DISCUSSION_NOT_FOUND = { message: "404 Discussion Not Found" };
const ROUTE_NOT_FOUND = { error: "404 Not Found" };

interface Parent {
  kind: NoteableKind;
  ref: number;
  id: number;
  project: any;
}

const NOTEABLE_TYPE = { issues: "Issue", merge_requests: "MergeRequest", snippets: "Snippet" } as const;
/** Noteable.resolvable_types: merge requests, and issues since GitLab 16.3. */
const RESOLVABLE = { issues: true, merge_requests: true, snippets: false } as const;

async function makeParent(kind: NoteableKind, project: any, fields: Record<string, unknown> = {}, by = owner): Promise<Parent> {
  if (kind === "issues") {
    const issue = await createIssue(by.api, project.id, fields);
    return { kind, ref: issue.iid, id: issue.id, project };
  }
  if (kind === "merge_requests") {
    const mr = await createMergeRequest(by.api, project.id, fields);
    return { kind, ref: mr.iid, id: mr.id, project };
  }
  const snippet = await createSnippet(by.api, project.id, { visibility: "public", ...fields });
  return { kind, ref: snippet.id, id: snippet.id, project };
}

const base = (p: Parent) => `/projects/${p.project.id}/${p.kind}/${p.ref}`;
const discussionsPath = (p: Parent) => `${base(p)}/discussions`;
const discussionPath = (p: Parent, id: string) => `${discussionsPath(p)}/${id}`;
const threadNotePath = (p: Parent, id: string, noteId: number) => `${discussionPath(p, id)}/notes/${noteId}`;
const withoutAwards = ({ award_emoji: _awards, ...rest }: any) => rest;

async function startThread(p: Parent, by: TestUser | TestApp["root"], body = "Thread start"): Promise<any> {
  const api = "api" in by ? by.api : by;
  const res = await api.post(discussionsPath(p), { body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function reply(p: Parent, discussionId: string, by: TestUser, body = "A reply"): Promise<any> {
  const res = await by.api.post(`${discussionPath(p, discussionId)}/notes`, { body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Entities::Note of a note in a thread; `resolved*` only where the note is resolvable. */
function threadNote(p: Parent, author: TestUser, fields: { id: number; body: string; type?: string | null; resolved?: boolean; internal?: boolean }) {
  const resolvable = fields.type !== null && RESOLVABLE[p.kind];
  return {
    id: fields.id,
    type: fields.type === undefined ? "DiscussionNote" : fields.type,
    body: fields.body,
    attachment: null,
    author: expect.objectContaining({ id: author.id, username: author.username }),
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: expect.stringMatching(TIMESTAMP),
    system: false,
    noteable_id: p.id,
    noteable_type: NOTEABLE_TYPE[p.kind],
    project_id: p.project.id,
    resolvable,
    ...(resolvable && { resolved: fields.resolved ?? false, resolved_by: null, resolved_at: null }),
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

describe.each(["issues", "merge_requests", "snippets"] as const)("discussions on %s", (kind) => {
  let pub: Parent;

  beforeAll(async () => {
    pub = await makeParent(kind, publicProject);
  });

  describe("POST .../discussions", () => {
    it("starts a thread: 201 with Entities::Discussion (40-hex id, individual_note false, one DiscussionNote)", async () => {
      const res = await developer.api.post(discussionsPath(pub), { body: "Let's talk" });
      expect(res.status, res.text).toBe(201);
      expect(res.body.id).toMatch(HEX40);
      expect({ ...res.body, notes: res.body.notes.map(withoutAwards) }).toEqual({
        id: res.body.id,
        individual_note: false,
        notes: [threadNote(pub, developer, { id: res.body.notes[0].id, body: "Let's talk" })],
      });
    });

    it("takes a thread from every signed-in member and, on a public project, non-members; 401 anonymous", async () => {
      for (const user of [guest, reporter, developer, maintainer, owner, outsider]) await startThread(pub, user);
      await startThread(pub, t.root);
      const res = await t.anon.post(discussionsPath(pub), { body: "x" });
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
    });

    it("bad input: no body (Grape's 400), a blank body (the note's validation), an unknown parent", async () => {
      const missing = await developer.api.post(discussionsPath(pub), {});
      expect([missing.status, missing.body]).toEqual([400, { error: "body is missing" }]);
      const blank = await developer.api.post(discussionsPath(pub), { body: "  " });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toMatch(/^400 Bad request - Note .*note.*can't be blank/);
      const unknown = await developer.api.post(`/projects/${publicProject.id}/${kind}/999999/discussions`, { body: "x" });
      expect([unknown.status, unknown.body]).toEqual([404, NOT_FOUND]);
    });

    it("keeps created_at only from Owners and administrators (set_note_created_at)", async () => {
      const when = "2020-01-02T03:04:05.000Z";
      for (const [api, kept] of [[developer.api, false], [owner.api, true], [t.root, true]] as const) {
        const res = await api.post(discussionsPath(pub), { body: "dated", created_at: when });
        expect(res.status).toBe(201);
        expect(res.body.notes[0].created_at === when, String(kept)).toBe(kept);
      }
    });
  });

  describe("replies", () => {
    it("a reply joins the thread (201 Entities::Note), shows in the discussion and in the notes list", async () => {
      const thread = await startThread(pub, developer);
      const note = await reply(pub, thread.id, guest, "I agree");
      expect(withoutAwards(note)).toEqual(threadNote(pub, guest, { id: note.id, body: "I agree" }));
      const shown = await reporter.api.get(discussionPath(pub, thread.id));
      expect(shown.status).toBe(200);
      expect(shown.body.notes.map((n: any) => n.id)).toEqual([thread.notes[0].id, note.id]);
      const notes = await reporter.api.get(`${base(pub)}/notes`, { query: { per_page: 100 } });
      expect(notes.body.map((n: any) => n.id)).toContain(note.id);
      const listed = await reporter.api.get(`${discussionPath(pub, thread.id)}/notes`);
      expect(listed.body.map((n: any) => n.id)).toEqual([thread.notes[0].id, note.id]);
      const single = await reporter.api.get(threadNotePath(pub, thread.id, note.id));
      expect([single.status, single.body.id]).toEqual([200, note.id]);
    });

    it(
      kind === "snippets"
        ? "refuses a reply to an individual note: 400 Discussion can not be replied to. (snippets are not replyable)"
        : "a reply to an individual note turns it into a thread (IndividualNoteDiscussion#convert_to_discussion!)",
      async () => {
        const note = await createNote(developer.api, publicProject.id, kind, pub.ref, { body: "plain" });
        const list = await developer.api.get(discussionsPath(pub), { query: { per_page: 100 } });
        const individual = list.body.find((d: any) => d.notes[0].id === note.id);
        expect(individual.individual_note).toBe(true);
        expect(withoutAwards(individual.notes[0])).toEqual(threadNote(pub, developer, { id: note.id, body: "plain", type: null }));
        const res = await guest.api.post(`${discussionPath(pub, individual.id)}/notes`, { body: "answer" });
        if (kind === "snippets") {
          expect([res.status, res.body]).toEqual([400, { message: "400 Bad request - Discussion can not be replied to." }]);
          return;
        }
        expect(res.status, res.text).toBe(201);
        const thread = (await developer.api.get(discussionPath(pub, individual.id))).body;
        expect(thread.individual_note).toBe(false);
        expect(thread.notes.map((n: any) => [n.id, n.type])).toEqual([[note.id, "DiscussionNote"], [res.body.id, "DiscussionNote"]]);
        expect((await developer.api.get(`${base(pub)}/notes/${note.id}`)).body.type).toBe("DiscussionNote");
      },
    );

    it("unknown discussions: 404 Discussion Not Found (GET, reply), 404 Notes Not Found (its notes)", async () => {
      const unknown = "0".repeat(40);
      for (const res of [await developer.api.get(discussionPath(pub, unknown)), await developer.api.post(`${discussionPath(pub, unknown)}/notes`, { body: "x" })]) {
        expect([res.status, res.body]).toEqual([404, DISCUSSION_NOT_FOUND]);
      }
      const notes = await developer.api.get(`${discussionPath(pub, unknown)}/notes`);
      expect([notes.status, notes.body]).toEqual([404, { message: "404 Notes Not Found" }]);
      const blank = await developer.api.post(`${discussionPath(pub, (await startThread(pub, developer)).id)}/notes`, { body: "" });
      expect(blank.status).toBe(400);
    });
  });

  describe("GET .../discussions", () => {
    it("lists threads and individual notes by their first note, paginated with GitLab's headers; 401 anonymous", async () => {
      const parent = await makeParent(kind, publicProject);
      const first = await startThread(parent, developer, "one");
      const plain = await createNote(guest.api, publicProject.id, kind, parent.ref, { body: "two" });
      const third = await startThread(parent, maintainer, "three");
      await reply(parent, first.id, guest, "one, again");
      const page1 = await reporter.api.get(discussionsPath(parent), { query: { per_page: 2 } });
      expect(page1.status).toBe(200);
      expect([page1.headers.get("x-total"), page1.headers.get("x-total-pages"), page1.headers.get("x-next-page")]).toEqual(["3", "2", "2"]);
      expect(page1.body.map((d: any) => [d.individual_note, d.notes.map((n: any) => n.body)])).toEqual([
        [false, ["one", "one, again"]],
        [true, ["two"]],
      ]);
      expect(page1.body[1].notes[0].id).toBe(plain.id);
      const page2 = await reporter.api.get(discussionsPath(parent), { query: { per_page: 2, page: 2 } });
      expect(page2.body.map((d: any) => d.id)).toEqual([third.id]);
      const anon = await t.anon.get(discussionsPath(parent));
      expect([anon.status, anon.body]).toEqual([401, UNAUTHORIZED]);
    });

    it("hides a private project's discussions from non-members (404 Project Not Found)", async () => {
      const priv = await makeParent(kind, privateProject);
      const thread = await startThread(priv, owner);
      for (const path of [discussionsPath(priv), discussionPath(priv, thread.id)]) {
        const res = await outsider.api.get(path);
        expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
      }
      expect((await outsider.api.post(discussionsPath(priv), { body: "x" })).body).toEqual(PROJECT_NOT_FOUND);
      for (const api of [reporter.api, developer.api, maintainer.api, t.root]) {
        expect((await api.get(discussionPath(priv, thread.id))).status).toBe(200);
      }
    });
  });

  describe("PUT and DELETE thread notes", () => {
    it("the author and Maintainers and above change a note's body; others 403, anonymous 401", async () => {
      const thread = await startThread(pub, guest, "mine");
      const noteId = thread.notes[0].id;
      for (const api of [reporter.api, developer.api, outsider.api]) {
        expect((await api.put(threadNotePath(pub, thread.id, noteId), { body: "x" })).body).toEqual(FORBIDDEN);
      }
      expect((await t.anon.put(threadNotePath(pub, thread.id, noteId), { body: "x" })).body).toEqual(UNAUTHORIZED);
      for (const [who, api] of [["author", guest.api], ["maintainer", maintainer.api], ["admin", t.root]] as const) {
        const res = await api.put(threadNotePath(pub, thread.id, noteId), { body: `by ${who}` });
        expect([res.status, res.body.body], who).toEqual([200, `by ${who}`]);
      }
    });

    it("bad input: exactly one of body and resolved (Grape), a blank body (the note's validation), unknown note 404", async () => {
      const thread = await startThread(pub, developer);
      const path = threadNotePath(pub, thread.id, thread.notes[0].id);
      const none = await developer.api.put(path, {});
      expect([none.status, none.body]).toEqual([400, { error: "body, resolved are missing, exactly one parameter must be provided" }]);
      const both = await developer.api.put(path, { body: "x", resolved: true });
      expect([both.status, both.body]).toEqual([400, { error: "body, resolved are mutually exclusive" }]);
      const blank = await developer.api.put(path, { body: " " });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toMatch(/^400 Bad request - Note .*can't be blank/);
      const unknown = await developer.api.put(threadNotePath(pub, thread.id, 999999), { body: "x" });
      expect([unknown.status, unknown.body]).toEqual([404, NOT_FOUND]);
    });

    it("DELETE removes a note (204); the last note gone, the discussion is gone", async () => {
      const thread = await startThread(pub, developer);
      const answer = await reply(pub, thread.id, guest);
      expect((await developer.api.delete(threadNotePath(pub, thread.id, answer.id))).body).toEqual(FORBIDDEN);
      expect((await guest.api.delete(threadNotePath(pub, thread.id, answer.id))).status).toBe(204);
      expect((await developer.api.get(discussionPath(pub, thread.id))).body.notes).toHaveLength(1);
      expect((await maintainer.api.delete(threadNotePath(pub, thread.id, thread.notes[0].id))).status).toBe(204);
      expect((await developer.api.get(discussionPath(pub, thread.id))).body).toEqual(DISCUSSION_NOT_FOUND);
    });
  });
});

describe.each(["issues", "merge_requests"] as const)("resolving threads on %s", (kind) => {
  let parent: Parent;

  beforeAll(async () => {
    parent = await makeParent(kind, publicProject, {}, developer);
  });

  const resolve = (api: any, id: string, resolved: unknown) => api.put(discussionPath(parent, id), { resolved });

  it("Developers and above resolve and unresolve a whole thread (200 Entities::Discussion)", async () => {
    const thread = await startThread(parent, guest);
    await reply(parent, thread.id, reporter);
    const done = await resolve(developer.api, thread.id, true);
    expect(done.status, done.text).toBe(200);
    expect(done.body.id).toBe(thread.id);
    for (const note of done.body.notes) {
      expect([note.resolvable, note.resolved, note.resolved_by.id, note.resolved_at]).toEqual([true, true, developer.id, expect.stringMatching(TIMESTAMP)]);
    }
    const undone = await resolve(maintainer.api, thread.id, false);
    expect(undone.body.notes.map((n: any) => [n.resolved, n.resolved_by, n.resolved_at])).toEqual([[false, null, null], [false, null, null]]);
    for (const api of [owner.api, t.root]) expect((await resolve(api, thread.id, true)).status).toBe(200);
  });

  it("refuses Guests, Reporters and non-members who did not author the noteable (403), anonymous (401)", async () => {
    const thread = await startThread(parent, guest);
    for (const api of [guest.api, reporter.api, outsider.api]) expect((await resolve(api, thread.id, true)).body).toEqual(FORBIDDEN);
    expect((await resolve(t.anon, thread.id, true)).body).toEqual(UNAUTHORIZED);
  });

  it("lets the noteable's author resolve (ResolvableDiscussion#can_resolve?)", async () => {
    const own = kind === "issues" ? await makeParent(kind, publicProject, {}, guest) : await makeParent(kind, publicProject, {}, developer);
    const author = kind === "issues" ? guest : developer;
    const thread = await startThread(own, maintainer);
    expect((await author.api.put(discussionPath(own, thread.id), { resolved: true })).status).toBe(200);
  });

  it("bad input: resolved missing or invalid 400, unknown discussion 404, an individual note is not resolvable (403)", async () => {
    const thread = await startThread(parent, guest);
    expect((await developer.api.put(discussionPath(parent, thread.id), {})).body).toEqual({ error: "resolved is missing" });
    expect((await developer.api.put(discussionPath(parent, thread.id), { resolved: "maybe" })).body).toEqual({ error: "resolved is invalid" });
    expect((await resolve(developer.api, "f".repeat(40), true)).body).toEqual(DISCUSSION_NOT_FOUND);
    const note = await createNote(developer.api, publicProject.id, kind, parent.ref);
    const individual = (await developer.api.get(discussionsPath(parent), { query: { per_page: 100 } })).body.find((d: any) => d.notes[0].id === note.id);
    expect((await resolve(developer.api, individual.id, true)).body).toEqual(FORBIDDEN);
  });

  it("a single note: PUT .../notes/:note_id with resolved (the note's author may), 400 Note is not resolvable", async () => {
    const thread = await startThread(parent, guest);
    const answer = await reply(parent, thread.id, reporter);
    const res = await reporter.api.put(threadNotePath(parent, thread.id, answer.id), { resolved: true });
    expect([res.status, res.body.resolved, res.body.resolved_by?.id]).toEqual([200, true, reporter.id]);
    const shown = (await developer.api.get(discussionPath(parent, thread.id))).body;
    expect(shown.notes.map((n: any) => n.resolved)).toEqual([false, true]);
    expect((await reporter.api.put(threadNotePath(parent, thread.id, thread.notes[0].id), { resolved: true })).body).toEqual(FORBIDDEN);
    const note = await createNote(developer.api, publicProject.id, kind, parent.ref);
    const plain = await developer.api.put(threadNotePath(parent, thread.id, note.id), { resolved: true });
    expect([plain.status, plain.body]).toEqual([400, { message: "400 Bad request - Note is not resolvable" }]);
  });

  it("a reply to a resolved thread is resolved too (Notes::BuildService)", async () => {
    const thread = await startThread(parent, guest);
    await resolve(developer.api, thread.id, true);
    const answer = await reply(parent, thread.id, reporter);
    expect([answer.resolved, answer.resolved_by.id]).toEqual([true, reporter.id]);
  });
});

describe("snippet threads", () => {
  it("cannot be resolved: no such route (404), a note's resolved is 400 Note is not resolvable", async () => {
    const parent = await makeParent("snippets", publicProject);
    const thread = await startThread(parent, developer);
    expect(thread.notes[0].resolvable).toBe(false);
    expect("resolved" in thread.notes[0]).toBe(false);
    const res = await developer.api.put(discussionPath(parent, thread.id), { resolved: true });
    expect([res.status, res.body]).toEqual([404, ROUTE_NOT_FOUND]);
    const note = await developer.api.put(threadNotePath(parent, thread.id, thread.notes[0].id), { resolved: true });
    expect([note.status, note.body]).toEqual([400, { message: "400 Bad request - Note is not resolvable" }]);
  });
});

describe("internal notes in discussions", () => {
  it("are left out for callers below Reporter; replies to an internal note are internal", async () => {
    const parent = await makeParent("issues", publicProject);
    const internal = await createNote(reporter.api, publicProject.id, "issues", parent.ref, { body: "secret", internal: true });
    const list = (await reporter.api.get(discussionsPath(parent))).body;
    const discussion = list.find((d: any) => d.notes[0].id === internal.id);
    expect(discussion.notes[0].internal).toBe(true);
    const guestList = await guest.api.get(discussionsPath(parent));
    expect(guestList.body.map((d: any) => d.id)).not.toContain(discussion.id);
    expect(guestList.headers.get("x-total")).toBe(String(list.length - 1));
    for (const res of [await guest.api.get(discussionPath(parent, discussion.id)), await guest.api.post(`${discussionPath(parent, discussion.id)}/notes`, { body: "x" })]) {
      expect([res.status, res.body]).toEqual([404, DISCUSSION_NOT_FOUND]);
    }
    const answer = await reply(parent, discussion.id, developer, "still secret");
    expect([answer.internal, answer.confidential, answer.type]).toEqual([true, true, "DiscussionNote"]);
  });

  it("a thread started through POST .../discussions is never internal (the endpoint has no such param)", async () => {
    const parent = await makeParent("issues", publicProject);
    const res = await reporter.api.post(discussionsPath(parent), { body: "open", internal: true });
    expect([res.status, res.body.notes[0].internal]).toEqual([201, false]);
  });
});

describe("discussions on a confidential issue", () => {
  it("answer a Guest and a non-member 404 Not found; Reporters and the author take part", async () => {
    const issue = await makeParent("issues", publicProject, { confidential: true });
    const thread = await startThread(issue, reporter);
    for (const api of [guest.api, outsider.api]) {
      for (const res of [await api.get(discussionsPath(issue)), await api.post(discussionsPath(issue), { body: "x" }), await api.get(discussionPath(issue, thread.id))]) {
        expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
      }
    }
    await reply(issue, thread.id, developer);
    const own = await makeParent("issues", publicProject, { confidential: true }, guest);
    await startThread(own, guest);
  });
});

describe.each(["issues", "merge_requests"] as const)("a locked discussion on %s", (kind) => {
  it("takes threads, replies and resolutions from project members only (403 for others, admins included)", async () => {
    const admin = await createUser(t, { admin: true });
    const parent = await makeParent(kind, publicProject);
    const thread = await startThread(parent, outsider);
    const lock = await owner.api.put(base(parent), { discussion_locked: true });
    expect([lock.status, lock.body.discussion_locked]).toEqual([200, true]);
    for (const api of [outsider.api, admin.api]) {
      expect((await api.post(discussionsPath(parent), { body: "x" })).body).toEqual(FORBIDDEN);
      expect((await api.post(`${discussionPath(parent, thread.id)}/notes`, { body: "x" })).body).toEqual(FORBIDDEN);
      expect((await api.put(discussionPath(parent, thread.id), { resolved: true })).body).toEqual(FORBIDDEN);
    }
    expect((await outsider.api.get(discussionPath(parent, thread.id))).status).toBe(200);
    await reply(parent, thread.id, guest);
    expect((await developer.api.put(discussionPath(parent, thread.id), { resolved: true })).status).toBe(200);
  });
});

describe("an archived project", () => {
  it("refuses new threads, replies and resolutions (403) but still shows its discussions", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const parent = await makeParent("merge_requests", project);
    const thread = await startThread(parent, developer);
    expect((await t.root.put(`/projects/${project.id}`, { archived: true })).status).toBe(200);
    for (const api of [developer.api, owner.api, t.root]) {
      expect((await api.post(discussionsPath(parent), { body: "x" })).body).toEqual(FORBIDDEN);
      expect((await api.post(`${discussionPath(parent, thread.id)}/notes`, { body: "x" })).body).toEqual(FORBIDDEN);
      expect((await api.put(discussionPath(parent, thread.id), { resolved: true })).body).toEqual(FORBIDDEN);
    }
    expect((await guest.api.get(discussionPath(parent, thread.id))).status).toBe(200);
  });
});

describe("the note domain event", () => {
  const events: NoteEvent[] = [];
  subscribe("note", async (_tx, event) => {
    events.push(event);
  });

  it.each(["issues", "merge_requests", "snippets"] as const)("is published for a new thread, a reply and a changed body on %s", async (kind) => {
    const project = await createTeamProject(team, { visibility: "private" });
    const parent = await makeParent(kind, project, {}, developer);
    events.length = 0;
    const thread = await startThread(parent, developer);
    const answer = await reply(parent, thread.id, developer);
    await developer.api.put(threadNotePath(parent, thread.id, answer.id), { body: "changed" });
    await developer.api.put(discussionPath(parent, thread.id), { resolved: true });
    expect(events).toEqual([
      { action: "create", projectId: project.id, noteId: thread.notes[0].id, actorId: developer.id },
      { action: "create", projectId: project.id, noteId: answer.id, actorId: developer.id },
      { action: "update", projectId: project.id, noteId: answer.id, actorId: developer.id },
    ]);
  });
});

describe("GraphQL", () => {
  it("has the same root fields: a thread started and listed through /graphql", async () => {
    const parent = await makeParent("merge_requests", publicProject);
    const created = await developer.api.graphql(
      `mutation($id: ID!, $iid: Int!) { createMergeRequestDiscussion(id: $id, merge_request_iid: $iid, body: "via graphql") { id individual_note notes { body type resolvable resolved } } }`,
      { id: String(publicProject.id), iid: parent.ref },
    );
    const thread = created.body.data!.createMergeRequestDiscussion;
    expect(thread).toEqual({ id: expect.stringMatching(HEX40), individual_note: false, notes: [{ body: "via graphql", type: "DiscussionNote", resolvable: true, resolved: false }] });
    const listed = await developer.api.graphql(
      `query($id: ID!, $iid: Int!) { mergeRequestDiscussions(id: $id, merge_request_iid: $iid) { id } }`,
      { id: String(publicProject.id), iid: parent.ref },
    );
    expect(listed.body.data!.mergeRequestDiscussions).toEqual([{ id: thread.id }]);
  });
});
