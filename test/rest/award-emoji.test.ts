// Emoji reactions through /api/v4, table-driven: the 3 awardable kinds (issues, merge requests,
// project snippets) x (the awardable itself, one of its notes) x (list, get, create, delete) x
// every actor (anonymous, non-member, guest, developer, owner, admin, the reaction's author) on a
// public and a private project, with GitLab's statuses and texts.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { AWARDABLE_KINDS, AWARDABLE_TYPE, awardEmoji, awardEmojiPath, type AwardableKind, type AwardableTarget } from "../helpers/award-emoji.js";
import { AWARD_EMOJI_NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { ACCESS_LEVEL, createTeamWithProjects } from "../helpers/team.js";

type Visibility = "public" | "private";
type Actor = "anonymous" | "non_member" | "guest" | "reporter" | "developer" | "maintainer" | "owner" | "admin";
/** ok; 404 Project Not Found; 404 Award Emoji Not Found; 401 */
type Outcome = "ok" | "no_project" | "hidden" | "unauthorized";

/**
 * [read (list and get), create, delete someone else's reaction] per actor and project visibility.
 * The one kind-dependent cell: Guests of a private project cannot read its merge requests
 * (Reporter and above), so there they get "hidden" for reading and reacting; DELETE does not
 * check that the awardable is readable (GitLab), so deleting another's reaction is still 401.
 */
const MATRIX: Record<Actor, Record<Visibility, [Outcome, Outcome, Outcome]>> = {
  anonymous: { public: ["ok", "hidden", "unauthorized"], private: ["no_project", "no_project", "no_project"] },
  non_member: { public: ["ok", "ok", "unauthorized"], private: ["no_project", "no_project", "no_project"] },
  guest: { public: ["ok", "ok", "unauthorized"], private: ["ok", "ok", "unauthorized"] },
  reporter: { public: ["ok", "ok", "unauthorized"], private: ["ok", "ok", "unauthorized"] },
  developer: { public: ["ok", "ok", "unauthorized"], private: ["ok", "ok", "unauthorized"] },
  maintainer: { public: ["ok", "ok", "unauthorized"], private: ["ok", "ok", "unauthorized"] },
  owner: { public: ["ok", "ok", "unauthorized"], private: ["ok", "ok", "unauthorized"] },
  admin: { public: ["ok", "ok", "ok"], private: ["ok", "ok", "ok"] },
};

function expected(actor: Actor, visibility: Visibility, kind: AwardableKind): [Outcome, Outcome, Outcome] {
  if (actor === "guest" && visibility === "private" && kind === "merge_requests") return ["hidden", "hidden", "unauthorized"];
  return MATRIX[actor][visibility];
}

const ERROR_BODY: Record<Exclude<Outcome, "ok">, [number, object]> = {
  no_project: [404, PROJECT_NOT_FOUND],
  hidden: [404, AWARD_EMOJI_NOT_FOUND],
  unauthorized: [401, UNAUTHORIZED],
};

let t: TestApp;
let author: TestUser; // owns the projects and the awardables
let reactor: TestUser; // a Developer whose reactions the actors try to delete
let guest: TestUser;
let reporter: TestUser;
let developer: TestUser;
let maintainer: TestUser;
let nonMember: TestUser;
const targets = new Map<string, { target: AwardableTarget; awardableId: number; reactionId: number }>();

const key = (visibility: Visibility, kind: AwardableKind, onNote: boolean) => `${visibility}/${kind}/${onNote ? "note" : "awardable"}`;

function clientOf(actor: Actor): ApiClient {
  return {
    anonymous: t.anon, non_member: nonMember.api, guest: guest.api, reporter: reporter.api, developer: developer.api,
    maintainer: maintainer.api, owner: author.api, admin: t.root,
  }[actor];
}

async function createAwardable(kind: AwardableKind, projectId: number, visibility: Visibility): Promise<{ ref: number; id: number }> {
  if (kind === "issues") return createIssue(author.api, projectId).then((i) => ({ ref: i.iid, id: i.id }));
  if (kind === "merge_requests") return createMergeRequest(author.api, projectId).then((mr) => ({ ref: mr.iid, id: mr.id }));
  return createSnippet(author.api, projectId, { visibility }).then((s) => ({ ref: s.id, id: s.id }));
}

beforeAll(async () => {
  t = await startTestApp();
  const team = await createTeamWithProjects(t);
  ({ owner: author, guest, reporter, developer, maintainer, nonMember } = team);
  reactor = await createUser(t);
  for (const [visibility, project] of [["public", team.publicProject], ["private", team.privateProject]] as const) {
    await addMember(author.api, "projects", project.id, reactor.id, ACCESS_LEVEL.developer);
    for (const kind of AWARDABLE_KINDS) {
      const awardable = await createAwardable(kind, project.id, visibility);
      const note = await createNote(author.api, project.id, kind, awardable.ref);
      for (const onNote of [false, true]) {
        const target: AwardableTarget = { projectId: project.id, kind, ref: awardable.ref, noteId: onNote ? note.id : undefined };
        const reaction = await awardEmoji(author.api, target, "thumbsup");
        targets.set(key(visibility, kind, onNote), { target, awardableId: onNote ? note.id : awardable.id, reactionId: reaction.id });
      }
    }
  }
});

function expectOutcome(res: { status: number; body: unknown; text: string }, outcome: Exclude<Outcome, "ok">) {
  const [status, body] = ERROR_BODY[outcome];
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual(body);
}

const cases = (["public", "private"] as const).flatMap((visibility) =>
  AWARDABLE_KINDS.flatMap((kind) =>
    [false, true].flatMap((onNote) =>
      (Object.keys(MATRIX) as Actor[]).map((actor) => [`${visibility} ${kind}${onNote ? " note" : ""} as ${actor}`, visibility, kind, onNote, actor] as const),
    ),
  ),
);

describe.each(cases)("%s", (_name, visibility, kind, onNote, actor) => {
  const [read, create, deleteOthers] = expected(actor, visibility, kind);
  const fixture = () => targets.get(key(visibility, kind, onNote))!;
  const awardableType = onNote ? "Note" : AWARDABLE_TYPE[kind];

  it(`lists reactions: ${read}`, async () => {
    const { target, awardableId, reactionId } = fixture();
    const res = await clientOf(actor).get(awardEmojiPath(target));
    if (read !== "ok") return expectOutcome(res, read);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-total")).toBe(String(res.body.length));
    const first = res.body.find((r: any) => r.id === reactionId);
    expect(first).toMatchObject({ name: "thumbsup", awardable_id: awardableId, awardable_type: awardableType, user: { id: author.id } });
  });

  it(`gets one reaction: ${read}`, async () => {
    const { target, awardableId, reactionId } = fixture();
    const res = await clientOf(actor).get(`${awardEmojiPath(target)}/${reactionId}`);
    if (read !== "ok") return expectOutcome(res, read);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["awardable_id", "awardable_type", "created_at", "id", "name", "updated_at", "user"]);
    expect(res.body).toMatchObject({ id: reactionId, name: "thumbsup", awardable_id: awardableId, awardable_type: awardableType });
    expect(res.body.user).toEqual({
      id: author.id,
      username: author.username,
      name: `User ${author.username}`,
      state: "active",
      locked: false,
      avatar_url: expect.any(String),
      web_url: `http://forgeline.test/${author.username}`,
    });
  });

  it(`adds a reaction: ${create}`, async () => {
    const { target, awardableId } = fixture();
    const reactions = async () => (await author.api.get(awardEmojiPath(target), { query: { per_page: 100 } })).body;
    const before = await reactions();
    const res = await clientOf(actor).post(awardEmojiPath(target), { name: "tada" });
    if (create !== "ok") {
      expectOutcome(res, create);
      expect(await reactions()).toEqual(before); // nothing awarded
      return;
    }
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "tada", awardable_id: awardableId, awardable_type: awardableType });
    const again = await clientOf(actor).get(`${awardEmojiPath(target)}/${res.body.id}`);
    expect(again.body).toEqual(res.body);
    expect(await reactions()).toEqual([...before, res.body]);
  });

  it(`deletes someone else's reaction: ${deleteOthers}; its own: ${create}`, async () => {
    const { target } = fixture();
    const others = await awardEmoji(reactor.api, target, "eyes");
    const res = await clientOf(actor).delete(`${awardEmojiPath(target)}/${others.id}`);
    if (deleteOthers === "ok") {
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe("");
      expect((await author.api.get(`${awardEmojiPath(target)}/${others.id}`)).status).toBe(404);
    } else {
      expectOutcome(res, deleteOthers);
      expect((await author.api.get(`${awardEmojiPath(target)}/${others.id}`)).status).toBe(200);
      expect((await reactor.api.delete(`${awardEmojiPath(target)}/${others.id}`)).status).toBe(204);
    }
    if (create !== "ok") return;
    const own = await awardEmoji(clientOf(actor), target, "rocket");
    const removed = await clientOf(actor).delete(`${awardEmojiPath(target)}/${own.id}`);
    expect(removed.status, removed.text).toBe(204);
    expect((await author.api.get(`${awardEmojiPath(target)}/${own.id}`)).body).toEqual({ message: "404 Not found" });
  });
});
