// Pieces shared by the payload builders: GitLab's project, group and user hook attributes and the
// two time formats payloads use (builders that format times explicitly write ISO 8601 seconds,
// "2020-12-11T04:57:22Z"; attribute dumps write Ruby's Time#to_s, "2023-07-04 20:44:11 UTC").
import type { Namespace, Project, User } from "../../generated/prisma/client.js";
import type { Services } from "../../domain/shared/context.js";
import type { Tx } from "../../domain/shared/events.js";
import { VISIBILITY_LEVELS } from "../../domain/shared/access-levels.js";
import { projectFullPath, projectWebUrl } from "../../domain/shared/web-urls.js";
import { sshUrlToRepo } from "../../domain/repository/urls.js";
import { avatarUrlOfUser } from "../../domain/users/presenter.js";
import { REDACTED } from "../request.js";
import type { LabelSnapshot } from "../../domain/labels/issuable-labels.js";

export type Ctx = Pick<Services, "config" | "now" | "git">;
export type ProjectWithNamespace = Project & { namespace: Namespace };

/** Time#xmlschema of a UTC time: seconds, "Z". */
export const xmlschema = (date: Date | null | undefined) => (date ? date.toISOString().replace(/\.\d{3}Z$/, "Z") : null);

/** Time#to_s of a UTC time. */
export const rubyTime = (date: Date | null | undefined) =>
  date ? `${date.toISOString().slice(0, 19).replace("T", " ")} UTC` : null;

export const isoDate = (date: Date | null | undefined) => (date ? date.toISOString().slice(0, 10) : null);

/** Project#hook_attrs (with the backward-compatible url fields). */
export function projectHookAttrs(ctx: Ctx, project: ProjectWithNamespace) {
  const webUrl = projectWebUrl(ctx, project);
  const sshUrl = sshUrlToRepo(ctx, projectFullPath(project));
  const httpUrl = `${webUrl}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: webUrl,
    avatar_url: null,
    git_ssh_url: sshUrl,
    git_http_url: httpUrl,
    namespace: project.namespace.name,
    visibility_level: VISIBILITY_LEVELS[project.visibility] ?? 0,
    path_with_namespace: projectFullPath(project),
    default_branch: project.defaultBranch,
    ci_config_path: null,
    homepage: webUrl,
    url: sshUrl,
    ssh_url: sshUrl,
    http_url: httpUrl,
  };
}

/** Project#hook_attrs sliced for the deprecated `repository` key of push payloads. */
export function repositoryAttrs(ctx: Ctx, project: ProjectWithNamespace) {
  const attrs = projectHookAttrs(ctx, project);
  return {
    name: attrs.name, url: attrs.url, description: attrs.description, homepage: attrs.homepage,
    git_http_url: attrs.git_http_url, git_ssh_url: attrs.git_ssh_url, visibility_level: attrs.visibility_level,
  };
}

/** Group#hook_attrs. */
export function groupHookAttrs(group: Namespace) {
  return { group_name: group.name, group_path: group.path, group_id: group.id, full_path: group.fullPath };
}

/** User#webhook_email: the public e-mail, which users here do not have. */
export const webhookEmail = (_user: User) => REDACTED;

/** User#hook_attrs: an uploaded avatar under PUBLIC_URL, else Gravatar's. */
export function userHookAttrs(ctx: Ctx, user: User) {
  return { id: user.id, name: user.name, username: user.username, avatar_url: avatarUrlOfUser(ctx, user), email: webhookEmail(user) };
}

/** Issuable::STATE_ID_MAP. */
export const STATE_IDS: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

/** Label#hook_attrs (the label's attributes) of labels as domain events and reads give them. */
export function labelHookAttrs(labels: LabelSnapshot[]) {
  return labels.map((label) => ({
    id: label.id, title: label.title, color: label.color, project_id: label.projectId, created_at: rubyTime(new Date(label.createdAt)),
    updated_at: rubyTime(new Date(label.updatedAt)), template: false, description: label.description,
    type: label.projectId != null ? "ProjectLabel" : "GroupLabel", group_id: label.groupId,
  }));
}

/** The users with these ids, in the order given (unknown ids left out). */
export async function usersById(db: Tx, ids: number[]): Promise<User[]> {
  if (!ids.length) return [];
  const users = await db.user.findMany({ where: { id: { in: ids } } });
  return ids.flatMap((id) => users.find((u) => u.id === id) ?? []);
}

export async function loadProject(db: Tx, projectId: number): Promise<ProjectWithNamespace | null> {
  return db.project.findUnique({ where: { id: projectId }, include: { namespace: true } });
}
