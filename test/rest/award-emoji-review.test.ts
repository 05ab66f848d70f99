// Emoji reactions, review of GitLab fidelity beyond award-emoji.test.ts and award-emoji-rules.test.ts:
// emoji names stored under GitLab's canonical names (fixtures/emojis/aliases.json), DELETE's
// lookup without a read check (lib/api/award_emoji.rb: only the author or an admin, anyone else
// 401), and REST bodies of awardables without the GraphQL-only `award_emoji`.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { awardEmoji, awardEmojiPath, type AwardableTarget } from "../helpers/award-emoji.js";
import { AWARD_EMOJI_NOT_FOUND, NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createProject, type TestUser } from "../helpers/factories.js";
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

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  ({ owner, guest, reporter, nonMember: stranger } = team);
  project = await createTeamProject(team, { visibility: "public" });
});

/** [name sent, name GitLab stores] */
const NAMES: [string, string][] = [
  // common names, stored as sent
  ...[
    "thumbsup", "thumbsdown", "smile", "tada", "100", "8ball", "heart", "rocket", "eyes", "white_check_mark", "heavy_check_mark",
    "x", "fire", "clap", "pray", "joy", "laughing", "slight_smile", "confused", "hourglass", "flag_us", "face_palm", "shrug",
    "thinking", "poop", "e-mail", "pencil", "skull", "spy", "cop", "golfer", "runner", "ok_woman", "raised_hands", "sunny",
    "thumbsup_tone1", "thumbsdown_tone5", "clap_tone2", "face_palm_tone4", "wave_tone1", "pray_tone5", "muscle_tone3",
    "ok_hand_tone2", "raised_hands_tone4", "shrug_tone3", "spy_tone2", "tone1",
    // GitLab's names that emoji-toolkit gives other primary codes or does not know
    "iphone", "bride_with_veil", "bride_with_veil_tone2", "man_in_tuxedo", "man_in_tuxedo_tone1", "ten", "large_blue_circle",
    "gay_pride_flag", "beetle", "flag_england", "flag_scotland", "flag_wales", "flag_united_nations",
  ].map((name): [string, string] => [name, name]),
  // GitLab's aliases
  ["+1", "thumbsup"],
  ["-1", "thumbsdown"],
  ["+1_tone3", "thumbsup_tone3"],
  ["-1_tone1", "thumbsdown_tone1"],
  ["facepalm", "face_palm"],
  ["facepalm_tone2", "face_palm_tone2"],
  ["person_facepalming", "face_palm"],
  ["satisfied", "laughing"],
  ["slightly_smiling_face", "slight_smile"],
  ["us", "flag_us"],
  ["memo", "pencil"],
  ["hankey", "poop"],
  ["flame", "fire"],
  ["mobile_phone", "iphone"],
  ["person_with_veil", "bride_with_veil"],
  ["person_in_tuxedo", "man_in_tuxedo"],
  ["tuxedo_tone1", "man_in_tuxedo_tone1"],
  ["keycap_10", "ten"],
  ["blue_circle", "large_blue_circle"],
  ["rainbow_flag", "gay_pride_flag"],
  ["lady_beetle", "beetle"],
  ["england", "flag_england"],
  ["scotland", "flag_scotland"],
  ["wales", "flag_wales"],
  ["un", "flag_united_nations"],
  // GitLab's aliases from the Unicode (CLDR) names
  ["thumbs_up", "thumbsup"],
  ["thumbs_down_dark_skin_tone", "thumbsdown_tone5"],
  ["hundred_points", "100"],
  ["grinning_face_with_big_eyes", "smiley"],
  ["face_with_tears_of_joy", "joy"],
  ["clapping_hands", "clap"],
  ["folded_hands", "pray"],
  ["party_popper", "tada"],
  ["check_mark_button", "white_check_mark"],
  ["check_mark", "heavy_check_mark"],
  ["cross_mark", "x"],
  ["red_heart", "heart"],
  ["pool_8_ball", "8ball"],
  ["hourglass_done", "hourglass"],
  ["confused_face", "confused"],
  ["waving_hand_light_skin_tone", "wave_tone1"],
  ["flag_united_states", "flag_us"],
  ["twelve_o_clock", "clock12"],
  ["men_s_room", "mens"],
  ["a_button_blood_type", "a"],
  ["light_skin_tone", "tone1"],
  ["family_man_woman_girl", "family_mwg"],
  ["person_blond_hair", "person_with_blond_hair"],
];

describe("emoji names", () => {
  it("stores every name under GitLab's canonical name", async () => {
    const issue = await createIssue(owner.api, project.id);
    const target: AwardableTarget = { projectId: project.id, kind: "issues", ref: issue.iid };
    const stored: [string, string][] = [];
    for (const [sent] of NAMES) {
      const res = await stranger.api.post(awardEmojiPath(target), { name: sent });
      stored.push([sent, res.status === 201 ? res.body.name : `${res.status} ${JSON.stringify(res.body)}`]);
      if (res.status === 201) expect((await stranger.api.delete(`${awardEmojiPath(target)}/${res.body.id}`)).status).toBe(204);
    }
    expect(stored).toEqual(NAMES);
  });

  it("treats an alias and its canonical name as the same reaction", async () => {
    const issue = await createIssue(owner.api, project.id);
    const target: AwardableTarget = { projectId: project.id, kind: "issues", ref: issue.iid };
    for (const [first, second] of [["mobile_phone", "iphone"], ["england", "flag_england"], ["hundred_points", "100"]]) {
      await awardEmoji(stranger.api, target, first);
      const res = await stranger.api.post(awardEmojiPath(target), { name: second });
      expect(res.status, `${first} then ${second}`).toBe(404);
      expect(res.body).toEqual({ message: "404 Award Emoji Name has already been taken Not Found" });
    }
  });

  it("takes the name as Grape's String: a JSON number is its text, a form field works too", async () => {
    const issue = await createIssue(owner.api, project.id);
    const target: AwardableTarget = { projectId: project.id, kind: "issues", ref: issue.iid };
    const number = await stranger.api.post(awardEmojiPath(target), { name: 100 });
    expect(number.status, number.text).toBe(201);
    expect(number.body.name).toBe("100");
    const form = await stranger.api.request("POST", awardEmojiPath(target), { form: new URLSearchParams({ name: "+1" }) });
    expect(form.status, form.text).toBe(201);
    expect(form.body.name).toBe("thumbsup");
  });

  it("still refuses names no emoji has", async () => {
    const issue = await createIssue(owner.api, project.id);
    const target: AwardableTarget = { projectId: project.id, kind: "issues", ref: issue.iid };
    for (const name of ["thumbs up", "THUMBSUP", "flag_xx", "hundred-points", "keycap:_10"]) {
      const res = await stranger.api.post(awardEmojiPath(target), { name });
      expect(res.status, name).toBe(404);
      expect(res.body).toEqual({ message: "404 Award Emoji Name is not a valid emoji name Not Found" });
    }
  });
});

describe("DELETE looks the reaction up without a read check, as GitLab does", () => {
  it("answers 401 to others and lets the author remove a reaction on a confidential issue and its note", async () => {
    const issue = await createIssue(owner.api, project.id);
    const note = await createNote(owner.api, project.id, "issues", issue.iid);
    const targets: AwardableTarget[] = [
      { projectId: project.id, kind: "issues", ref: issue.iid },
      { projectId: project.id, kind: "issues", ref: issue.iid, noteId: note.id },
    ];
    const byStranger = await Promise.all(targets.map((target) => awardEmoji(stranger.api, target, "eyes")));
    const byOwner = await Promise.all(targets.map((target) => awardEmoji(owner.api, target, "tada")));
    expect((await owner.api.put(`/projects/${project.id}/issues/${issue.iid}`, { confidential: true })).body.confidential).toBe(true);
    for (const [i, target] of targets.entries()) {
      // the stranger can no longer read the issue
      expect((await stranger.api.get(awardEmojiPath(target))).body).toEqual(AWARD_EMOJI_NOT_FOUND);
      for (const api of [t.anon, stranger.api, guest.api]) {
        const res = await api.delete(`${awardEmojiPath(target)}/${byOwner[i].id}`);
        expect(res.status, res.text).toBe(401);
        expect(res.body).toEqual(UNAUTHORIZED);
      }
      const unknown = await stranger.api.delete(`${awardEmojiPath(target)}/999999`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(NOT_FOUND);
      const own = await stranger.api.delete(`${awardEmojiPath(target)}/${byStranger[i].id}`);
      expect(own.status, own.text).toBe(204);
      expect((await owner.api.get(awardEmojiPath(target))).body.map((r: any) => r.id)).toEqual([byOwner[i].id]);
    }
  });

  it("answers 401 to Guests deleting others' reactions on an internal note", async () => {
    const issue = await createIssue(owner.api, project.id);
    const note = await createNote(owner.api, project.id, "issues", issue.iid, { internal: true });
    const target: AwardableTarget = { projectId: project.id, kind: "issues", ref: issue.iid, noteId: note.id };
    const award = await awardEmoji(reporter.api, target);
    for (const api of [t.anon, stranger.api, guest.api]) {
      const res = await api.delete(`${awardEmojiPath(target)}/${award.id}`);
      expect(res.status, res.text).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    expect((await reporter.api.delete(`${awardEmojiPath(target)}/${award.id}`)).status).toBe(204);
  });

  it("still answers 404 Project Not Found for a project the caller cannot see", async () => {
    const hidden = await createProject(owner.api, { visibility: "private" });
    const issue = await createIssue(owner.api, hidden.id);
    const target: AwardableTarget = { projectId: hidden.id, kind: "issues", ref: issue.iid };
    const award = await awardEmoji(owner.api, target);
    for (const api of [t.anon, stranger.api]) {
      const res = await api.delete(`${awardEmojiPath(target)}/${award.id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Project Not Found" });
    }
    const missing = await owner.api.delete(`${awardEmojiPath({ ...target, ref: 999999 })}/${award.id}`);
    expect(missing.body).toEqual(NOT_FOUND);
  });
});

describe("lookup order on a hidden awardable", () => {
  it("finds the note before checking that the caller may read it (404 Not found, then 404 Award Emoji Not Found)", async () => {
    const issue = await createIssue(owner.api, project.id, { confidential: true });
    const note = await createNote(owner.api, project.id, "issues", issue.iid);
    const other = await createIssue(owner.api, project.id);
    const otherNote = await createNote(owner.api, project.id, "issues", other.iid);
    const target: AwardableTarget = { projectId: project.id, kind: "issues", ref: issue.iid };
    for (const noteId of [999999, otherNote.id]) {
      const path = awardEmojiPath({ ...target, noteId });
      for (const res of [await stranger.api.get(path), await stranger.api.get(`${path}/1`), await stranger.api.post(path, { name: "eyes" })]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    }
    const path = awardEmojiPath({ ...target, noteId: note.id });
    for (const res of [await stranger.api.get(path), await stranger.api.get(`${path}/999999`), await stranger.api.post(path, { name: "eyes" })]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(AWARD_EMOJI_NOT_FOUND);
    }
  });
});

describe("REST bodies of awardables", () => {
  it("leave out award_emoji (GraphQL only) and carry upvotes/downvotes on issues and merge requests", async () => {
    const issue = await createIssue(owner.api, project.id);
    const mr = await createMergeRequest(owner.api, project.id);
    const snippet = await createSnippet(owner.api, project.id);
    const note = await createNote(owner.api, project.id, "issues", issue.iid);
    await awardEmoji(owner.api, { projectId: project.id, kind: "issues", ref: issue.iid }, "+1");
    await awardEmoji(owner.api, { projectId: project.id, kind: "merge_requests", ref: mr.iid }, "-1");
    await awardEmoji(owner.api, { projectId: project.id, kind: "snippets", ref: snippet.id }, "tada");
    await awardEmoji(owner.api, { projectId: project.id, kind: "issues", ref: issue.iid, noteId: note.id }, "eyes");
    const base = `/projects/${project.id}`;
    const one = async (path: string) => (await owner.api.get(path)).body;
    const find = async (path: string, id: number) => (await owner.api.get(path, { query: { per_page: 100 } })).body.find((row: any) => row.id === id);
    const bodies = {
      issue: await one(`${base}/issues/${issue.iid}`),
      issueRow: await find(`${base}/issues`, issue.id),
      mr: await one(`${base}/merge_requests/${mr.iid}`),
      mrRow: await find(`${base}/merge_requests`, mr.id),
      snippet: await one(`${base}/snippets/${snippet.id}`),
      snippetRow: await find(`${base}/snippets`, snippet.id),
      note: await one(`${base}/issues/${issue.iid}/notes/${note.id}`),
      noteRow: await find(`${base}/issues/${issue.iid}/notes`, note.id),
    };
    for (const [what, body] of Object.entries(bodies)) {
      expect(body, what).toBeDefined();
      expect(Object.keys(body), what).not.toContain("award_emoji");
    }
    for (const body of [bodies.issue, bodies.issueRow]) expect(body).toMatchObject({ upvotes: 1, downvotes: 0 });
    for (const body of [bodies.mr, bodies.mrRow]) expect(body).toMatchObject({ upvotes: 0, downvotes: 1 });
    expect(bodies.issue._links.award_emoji).toBe(`http://forgeline.test/api/v4/projects/${project.id}/issues/${issue.iid}/award_emoji`);
  });
});

describe("reactions go with what they react to", () => {
  const reactionCount = (awardableType: string, awardableId: number) =>
    t.services.db.awardEmoji.count({ where: { awardableType, awardableId } });

  it("deleting a note deletes its reactions", async () => {
    const issue = await createIssue(owner.api, project.id);
    const note = await createNote(owner.api, project.id, "issues", issue.iid);
    await awardEmoji(reporter.api, { projectId: project.id, kind: "issues", ref: issue.iid, noteId: note.id }, "tada");
    expect(await reactionCount("Note", note.id)).toBe(1);
    expect((await owner.api.delete(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}`)).status).toBe(204);
    expect(await reactionCount("Note", note.id)).toBe(0);
  });

  it("deleting a snippet deletes its reactions and those of its notes", async () => {
    const snippet = await createSnippet(owner.api, project.id, { visibility: "public" });
    const note = await createNote(owner.api, project.id, "snippets", snippet.id);
    await awardEmoji(reporter.api, { projectId: project.id, kind: "snippets", ref: snippet.id }, "rocket");
    await awardEmoji(reporter.api, { projectId: project.id, kind: "snippets", ref: snippet.id, noteId: note.id }, "eyes");
    expect((await owner.api.delete(`/projects/${project.id}/snippets/${snippet.id}`)).status).toBe(204);
    expect(await reactionCount("Snippet", snippet.id)).toBe(0);
    expect(await reactionCount("Note", note.id)).toBe(0);
  });
});
