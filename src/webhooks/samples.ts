// Sample payloads for POST .../hooks/:hook_id/test/:trigger (TestHooks::ProjectService,
// TestHooks::GroupService and Integrations::ProjectTestData): built from the hook's project (for a
// group hook, the group's first project with commits) and its latest issue, merge request or
// note; GitLab's 422 texts when the data is missing.
import type { User } from "../generated/prisma/client.js";
import type { HookOwner } from "../domain/web-hooks/owners.js";
import type { Services } from "../domain/shared/context.js";
import { AppError } from "../errors.js";
import { BLANK_SHA, type PushedCommit } from "../domain/shared/events.js";
import { branchNamed } from "../domain/repository/branches.js";
import { repositoryOf } from "../domain/repository/git.js";
import { pushedCommits } from "../domain/repository/ref-updates.js";
import { loadProject, type ProjectWithNamespace } from "./payloads/common.js";
import { buildAccessTokenPayload } from "./payloads/membership.js";
import { buildPushPayload, isProtectedBranch } from "./payloads/push.js";
import { buildReleasePayload } from "./releases.js";
import { buildEmojiPayload, buildIssuePayload, buildMergeRequestPayload, buildNotePayload } from "./payloads/work-items.js";
import type { TestTrigger } from "../domain/web-hooks/triggers.js";

const noData = (message: string) => new AppError(422, { message });

const MISSING: Partial<Record<TestTrigger, string>> = {
  job_events: "Ensure the project has CI jobs.",
  pipeline_events: "Ensure the project has CI pipelines.",
  wiki_page_events: "Ensure the wiki is enabled and has pages.",
};

/** Triggers the hook test cannot build data for. */
export const UNTESTABLE: readonly TestTrigger[] = ["confidential_note_events", "deployment_events", "feature_flag_events"];

export async function samplePayload(services: Services, owner: HookOwner, trigger: TestTrigger, user: User): Promise<object> {
  if (UNTESTABLE.includes(trigger)) throw noData("Testing not available for this hook");
  const project = owner.kind === "project" ? await loadProject(services.db, owner.id) : await firstProjectWithCommits(services, owner.id);
  if (!project) throw noData("Ensure the group has a project with commits.");
  if (MISSING[trigger]) throw noData(MISSING[trigger]);
  const db = services.db;
  switch (trigger) {
    case "push_events":
    case "tag_push_events":
      return pushSample(services, project, user, trigger === "tag_push_events");
    case "issues_events":
    case "confidential_issues_events": {
      const issue = await db.issue.findFirst({ where: { projectId: project.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], include: { assignees: true } });
      if (!issue) throw noData("Ensure the project has issues.");
      return buildIssuePayload(services, db, project, issue, user, "open");
    }
    case "merge_requests_events": {
      const mr = await db.mergeRequest.findFirst({
        where: { projectId: project.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], include: { assignees: true, reviewers: true },
      });
      if (!mr) throw noData("Ensure the project has merge requests.");
      return buildMergeRequestPayload(services, db, project, mr, user, "open");
    }
    case "note_events": {
      const note = await db.note.findFirst({ where: { projectId: project.id }, orderBy: { id: "desc" } });
      if (!note) throw noData("Ensure the project has notes.");
      return buildNotePayload(services, db, project, note, user, "create");
    }
    case "emoji_events": {
      const note = await db.note.findFirst({ where: { projectId: project.id }, orderBy: { id: "desc" } });
      if (!note) throw noData("Ensure the project has notes.");
      const now = services.now();
      return buildEmojiPayload(services, db, project, user, "award", {
        id: 1, name: "thumbsup", userId: user.id, awardableType: "Note", awardableId: note.id, createdAt: now, updatedAt: now,
      });
    }
    case "releases_events": {
      // TestHooks::ProjectService#releases_events_data: the project's latest release, as created
      const release = await db.release.findFirst({ where: { projectId: project.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
      if (!release) throw noData("Ensure the project has releases.");
      const links = await db.releaseLink.findMany({ where: { releaseId: release.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
      return buildReleasePayload(services, project, release, links, "create");
    }
    case "resource_access_token_events":
      return accessTokenSample(services, project);
    default:
      throw noData("Testing not available for this hook");
  }
}

/** The group's first project (by id) whose repository has commits (Group#first_non_empty_project). */
async function firstProjectWithCommits(services: Services, groupId: number): Promise<ProjectWithNamespace | null> {
  const project = await services.db.project.findFirst({
    where: { namespaceId: groupId, branches: { some: {} } }, orderBy: { id: "asc" }, select: { id: true },
  });
  return project && loadProject(services.db, project.id);
}

/** Push::build_sample: the default branch's latest three commits (newest first, as the repository lists them). */
async function pushSample(services: Services, project: ProjectWithNamespace, user: User, isTag: boolean) {
  const commits = await latestCommits(services, project, 3);
  const newest = commits[0]?.sha ?? BLANK_SHA;
  const refProtected = await isProtectedBranch(services.db, project.id, project.defaultBranch);
  if (isTag) {
    // no tags are kept: a tag created on the newest commit
    return buildPushPayload(services, {
      project, user, ref: "refs/tags/v1.0.0", before: BLANK_SHA, after: newest, commits: [], totalCommits: 0, refProtected: false,
    });
  }
  return buildPushPayload(services, {
    project, user, ref: `refs/heads/${project.defaultBranch}`, before: commits.at(-1)?.sha ?? BLANK_SHA, after: newest,
    commits, totalCommits: commits.length, refProtected,
  });
}

async function latestCommits(services: Services, project: ProjectWithNamespace, limit: number): Promise<PushedCommit[]> {
  const head = (await branchNamed(services.db, project.id, project.defaultBranch))?.headSha;
  if (!head) return [];
  const repo = repositoryOf(services, project.id);
  return pushedCommits(repo, await repo.commits(await repo.revList([`--max-count=${limit}`, head])));
}

/** An unsaved token of the project's first bot, expiring in two days. */
async function accessTokenSample(services: Services, project: ProjectWithNamespace) {
  const bot = await services.db.projectMember.findFirst({
    where: { projectId: project.id, user: { userType: "project_bot" } }, orderBy: { id: "asc" }, select: { userId: true },
  });
  const now = services.now();
  const token = { id: 1, userId: bot?.userId ?? null, name: "pat_for_webhook_event", createdAt: now, expiresAt: new Date(now.getTime() + 2 * 86_400_000) };
  return buildAccessTokenPayload(services, token, { type: "project", project });
}
