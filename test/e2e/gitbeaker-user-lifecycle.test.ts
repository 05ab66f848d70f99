// @gitbeaker/rest 43.8 driving the user lifecycle against the real server process: edit with an
// avatar, block/unblock, ban/unban, deactivate/activate, memberships, projects, remove (ghost user).
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { failure } from "./helpers/gitbeaker.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string = suite.server.rootToken!) => new Gitlab({ host: suite.server.url, token });

// a 1x1 PNG
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");

describe("user lifecycle", () => {
  it("edit() with an avatar, the state changes and their answers, a blocked user's token refused", async () => {
    const api = gitlab();
    const user = await createUser(suite.server);
    const edited = await api.Users.edit(user.id, { bio: "by gitbeaker", avatar: { content: new Blob([PNG]), filename: "me.png" } });
    expect(edited).toMatchObject({ id: user.id, bio: "by gitbeaker" });
    expect(edited.avatar_url).toBe(`${suite.server.url}/uploads/-/system/user/avatar/${user.id}/me.png`);
    expect((await fetch(edited.avatar_url as string)).status).toBe(200);

    await gitlab(user.token).Users.showCurrentUser();
    expect(await api.Users.block(user.id)).toBe(true);
    // GitLab's `null` for a user blocked already: gitbeaker turns a falsy JSON body into {}
    expect(await api.Users.block(user.id)).toEqual({});
    expect(await failure(gitlab(user.token).Users.showCurrentUser())).toEqual({ status: 403, message: "403 Forbidden - Your account has been blocked." });
    expect(await api.Users.unblock(user.id)).toBe(true);
    expect(await api.Users.ban(user.id)).toBe(true);
    expect(await failure(api.Users.ban(user.id))).toEqual({ status: 403, message: "You cannot ban banned users." });
    expect(await api.Users.unban(user.id)).toBe(true);
    expect((await gitlab(user.token).Users.showCurrentUser()).id).toBe(user.id);

    const dormant = await createUser(suite.server);
    expect(await api.Users.deactivate(dormant.id)).toBe(true);
    expect((await api.Users.show(dormant.id)).state).toBe("deactivated");
    expect(await api.Users.activate(dormant.id)).toBe(true);
    expect(await api.Users.activate(dormant.id)).toEqual({}); // GitLab's `false`, which gitbeaker turns into {}
    const raw = await suite.root.post(`/users/${dormant.id}/activate`);
    expect([raw.status, raw.body]).toEqual([201, false]);
  });

  it("memberships and projects of a user, then remove() hands their issue to the ghost user", async () => {
    const api = gitlab();
    const user = await createUser(suite.server);
    const project = await gitlab(user.token).Projects.create({ name: uniqueName("gb"), visibility: "public", initializeWithReadme: true });
    expect((await api.Users.allProjects(user.id)).map((p) => p.id)).toEqual([project.id]);
    expect(await api.Users.allMemberships(user.id)).toEqual([
      { source_id: project.id, source_name: project.name, source_type: "Project", access_level: 50 },
    ]);

    const leaver = await createUser(suite.server);
    await gitlab(user.token).ProjectMembers.add(project.id, 30, { userId: leaver.id });
    const issue = await gitlab(leaver.token).Issues.create(project.id, "left behind");
    await api.Users.remove(leaver.id);
    expect(await failure(api.Users.show(leaver.id))).toEqual({ status: 404, message: "404 User Not Found" });
    const kept = await api.Issues.show(issue.iid as number, { projectId: project.id });
    expect(kept.author).toMatchObject({ username: "ghost", name: "Ghost User" });
  });
});
