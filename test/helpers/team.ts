// A user for every project role, and projects of the team's owner with the others as members.
import type { ApiClient } from "./api.js";
import type { TestApp } from "./app.js";
import { addMember, createProject, createUser, type TestUser } from "./factories.js";

/** GitLab's project access levels. */
export const ACCESS_LEVEL = { guest: 10, planner: 15, reporter: 20, developer: 30, maintainer: 40 } as const;

export interface Team {
  owner: TestUser;
  maintainer: TestUser;
  developer: TestUser;
  reporter: TestUser;
  guest: TestUser;
  /** signed in, member of none of the team's projects */
  nonMember: TestUser;
}

export interface TeamWithProjects extends Team {
  publicProject: any;
  privateProject: any;
}

/** Users for every role: the owner creates the projects, the others are added as members. */
export async function createTeam(t: TestApp): Promise<Team> {
  const [owner, maintainer, developer, reporter, guest, nonMember] = await Promise.all(
    Array.from({ length: 6 }, () => createUser(t)),
  );
  return { owner: owner!, maintainer: maintainer!, developer: developer!, reporter: reporter!, guest: guest!, nonMember: nonMember! };
}

/** A project of the team's owner (private unless overridden) with the maintainer, developer, reporter and guest as members. */
export async function createTeamProject(team: Team, overrides: Record<string, unknown> = {}): Promise<any> {
  const project = await createProject(team.owner.api, overrides);
  const members: [TestUser, number][] = [
    [team.maintainer, ACCESS_LEVEL.maintainer],
    [team.developer, ACCESS_LEVEL.developer],
    [team.reporter, ACCESS_LEVEL.reporter],
    [team.guest, ACCESS_LEVEL.guest],
  ];
  for (const [user, level] of members) await addMember(team.owner.api, "projects", project.id, user.id, level);
  return project;
}

/** Every kind of caller, weakest first: no token, a team member of each role, the instance admin. */
export type Actor = "anonymous" | "nonMember" | "guest" | "reporter" | "developer" | "maintainer" | "owner" | "admin";
export const ACTORS: Actor[] = ["anonymous", "nonMember", "guest", "reporter", "developer", "maintainer", "owner", "admin"];

/** The API client an actor calls with. */
export const clientOf = (t: TestApp, team: Team, actor: Actor): ApiClient =>
  actor === "anonymous" ? t.anon : actor === "admin" ? t.root : team[actor].api;

/** A team with a public and a private project of its own. */
export async function createTeamWithProjects(t: TestApp): Promise<TeamWithProjects> {
  const team = await createTeam(t);
  const publicProject = await createTeamProject(team, { visibility: "public" });
  const privateProject = await createTeamProject(team, { visibility: "private" });
  return { ...team, publicProject, privateProject };
}
