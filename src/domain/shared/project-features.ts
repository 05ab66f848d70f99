// GitLab's project features (issues, merge requests, snippets, repository), each with an access
// level: "enabled" (whoever sees the project), "private" (members only) or "disabled".
import type { Project } from "../../generated/prisma/client.js";
import { paramError } from "../../errors.js";
import { AccessLevel, canSee } from "./access-levels.js";
import { projectMemberLevels } from "./memberships.js";
import type { ProjectAccess } from "./parents.js";
import { isAdmin, type DomainContext } from "./context.js";

export const PROJECT_FEATURES = ["issues", "merge_requests", "snippets", "repository"] as const;
export type ProjectFeature = (typeof PROJECT_FEATURES)[number];

export const FEATURE_ACCESS_LEVELS = ["disabled", "private", "enabled"] as const;
export type FeatureAccessLevel = (typeof FEATURE_ACCESS_LEVELS)[number];

const COLUMN = {
  issues: "issuesAccessLevel",
  merge_requests: "mergeRequestsAccessLevel",
  snippets: "snippetsAccessLevel",
  repository: "repositoryAccessLevel",
} as const satisfies Record<ProjectFeature, keyof Project>;

/** ProjectFeature::PRIVATE_FEATURES_MIN_ACCESS_LEVEL: merge requests need Reporter, the rest Guest. */
function minimumLevel(feature: ProjectFeature, project: Pick<Project, "visibility">): number {
  if (feature === "merge_requests") return AccessLevel.reporter;
  // Guests read code in public and internal projects, but not in private ones.
  if (feature === "repository" && project.visibility === "private") return AccessLevel.reporter;
  return AccessLevel.guest;
}

export function featureAccessLevel(project: Project, feature: ProjectFeature): FeatureAccessLevel {
  return project[COLUMN[feature]] as FeatureAccessLevel;
}

/**
 * Whether the caller may use a feature of a project they can already see (GitLab's
 * `feature_available?(feature, user)` plus the private-project minimum levels of ProjectPolicy).
 */
export function featureAvailable(ctx: DomainContext, access: ProjectAccess, feature: ProjectFeature): boolean {
  const setting = featureAccessLevel(access.project, feature);
  if (setting === "disabled") return false;
  if (isAdmin(ctx.actor)) return true;
  const membersOnly = setting === "private" || access.project.visibility === "private";
  return !membersOnly || access.level >= minimumLevel(feature, access.project);
}

/**
 * The active users among `userIds` who may use a feature of the project, each asked as the
 * caller would be: what GitLab keeps of the assignees and reviewers it is given.
 */
export async function featureUsers(ctx: DomainContext, { project }: ProjectAccess, feature: ProjectFeature, userIds: number[]): Promise<Set<number>> {
  const [users, levels] = await Promise.all([
    ctx.db.user.findMany({ where: { id: { in: userIds }, state: "active" } }),
    projectMemberLevels(ctx, project, userIds),
  ]);
  const allowed = users.filter((user) => {
    const asUser: DomainContext = { ...ctx, actor: { user, scopes: new Set(), tokenId: null } };
    const level = levels.get(user.id) ?? 0;
    return canSee(asUser.actor, project.visibility, level) && featureAvailable(asUser, { project, level }, feature);
  });
  return new Set(allowed.map((user) => user.id));
}

/** Prisma data for the `<feature>_access_level` params and the deprecated `<feature>_enabled` booleans. */
export function featureSettingsData(input: FeatureSettingsInput): Partial<Record<(typeof COLUMN)[ProjectFeature], string>> {
  const data: Partial<Record<(typeof COLUMN)[ProjectFeature], string>> = {};
  for (const feature of PROJECT_FEATURES) {
    const level = input[`${feature}_access_level`];
    const enabled = input[`${feature}_enabled`];
    if (level != null) {
      if (!(FEATURE_ACCESS_LEVELS as readonly string[]).includes(level)) throw paramError(`${feature}_access_level does not have a valid value`);
      data[COLUMN[feature]] = level;
    } else if (enabled != null) {
      data[COLUMN[feature]] = enabled ? "enabled" : "disabled";
    }
  }
  return data;
}

export type FeatureSettingsInput = {
  [K in ProjectFeature as `${K}_access_level`]?: string | null;
} & {
  [K in ProjectFeature as `${K}_enabled`]?: boolean | null;
};
