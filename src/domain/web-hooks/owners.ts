// Who a webhook belongs to: a group (GitLab's GroupHook, ee/lib/api/group_hooks.rb) or a project
// (ProjectHook, lib/api/project_hooks.rb). Both APIs check read_web_hook (GET) and admin_web_hook
// (the rest) on the owner; GitLab grants both with admin_group (group Owners) and admin_project
// (project Maintainers and Owners), and to administrators. What differs per owner is listed here:
// the access level, the event switches a request may set, and the plan limit.
import { AccessLevel } from "../shared/access-levels.js";
import { findGroup, findProject, type GroupOrProjectAccess } from "../shared/parents.js";
import { requireAuthenticated, requireLevel } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import type { WebHook } from "../../generated/prisma/client.js";
import { HOOK_EVENTS, type HookEvent } from "./switches.js";

/** An owner as the request names it: the `:id` of /groups/:id/hooks or /projects/:id/hooks. */
export type HookOwnerRef = { group: string | number } | { project: string | number };

export interface HookOwner {
  kind: "group" | "project";
  id: number;
  /** the owner's hooks (WebHook rows) */
  where: { groupId: number } | { projectId: number };
  /** the switches a create or edit request may set */
  settableEvents: readonly HookEvent[];
  /** GitLab's plan limits `group_hooks` and `project_hooks` */
  maxHooks: number;
}

/** A hook with its owner, whose hooks the caller may manage. */
export interface OwnedHook {
  hook: WebHook;
  owner: HookOwner;
}

/** Group hooks hear every event but repository updates (a project hook switch GitLab never sets). */
export const GROUP_HOOK_EVENTS = HOOK_EVENTS.filter((event) => event !== "repository_update_events");

/** ProjectHook's switches (lib/api/project_hooks.rb): no subgroup, member or project events. */
export const PROJECT_HOOK_EVENTS = [
  "push_events", "tag_push_events", "merge_requests_events", "issues_events", "confidential_issues_events", "note_events",
  "confidential_note_events", "pipeline_events", "wiki_page_events", "deployment_events", "feature_flag_events", "job_events",
  "releases_events", "milestone_events", "emoji_events", "resource_access_token_events", "vulnerability_events",
] as const satisfies readonly HookEvent[];

export const MAX_GROUP_HOOKS = 50;
export const MAX_PROJECT_HOOKS = 100;

/** Every hook route: 401 anonymous, 404 invisible owner, 403 below the owner's level (admins pass). */
export async function resolveHookOwner(ctx: DomainContext, ref: HookOwnerRef): Promise<HookOwner> {
  return hookOwnerOf(ctx, await findHookOwner(ctx, ref));
}

/** The owner a hook route names: 401 anonymous, 404 invisible. */
export async function findHookOwner(ctx: DomainContext, ref: HookOwnerRef): Promise<GroupOrProjectAccess> {
  requireAuthenticated(ctx);
  return "group" in ref ? findGroup(ctx, ref.group) : findProject(ctx, ref.project);
}

/** The owner whose hooks the caller may manage: 401 anonymous, 403 below the owner's level (admins pass). */
export function hookOwnerOf(ctx: DomainContext, access: GroupOrProjectAccess): HookOwner {
  requireAuthenticated(ctx);
  if ("group" in access) {
    const { group, level } = access;
    requireLevel(ctx, level, AccessLevel.owner);
    return { kind: "group", id: group.id, where: { groupId: group.id }, settableEvents: GROUP_HOOK_EVENTS, maxHooks: MAX_GROUP_HOOKS };
  }
  const { project, level } = access;
  requireLevel(ctx, level, AccessLevel.maintainer);
  return { kind: "project", id: project.id, where: { projectId: project.id }, settableEvents: PROJECT_HOOK_EVENTS, maxHooks: MAX_PROJECT_HOOKS };
}
