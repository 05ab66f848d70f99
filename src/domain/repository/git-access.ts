// Who may clone, fetch and push a repository over git (Gitlab::GitAccess), and the checks of each
// pushed ref (Gitlab::Checks: push, branch and tag checks), with GitLab's messages. The HTTP
// stage's answers are plain text; a refused ref is printed by git as "remote: GitLab: <message>".
import { AppError } from "../../errors.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { featureAvailable } from "../shared/project-features.js";
import { projectFullPath } from "../shared/web-urls.js";
import { canAdminProject, canMergeToBranch, canPushCode, canPushToBranch } from "./access.js";
import { repositoryOf } from "./git.js";
import { protectedBranchesMatching } from "./protection-rules.js";
import { BRANCH_PREFIX, TAG_PREFIX } from "./ref-updates.js";
import { isValidBranchName } from "./refs.js";
import { NULL_SHA } from "../../git/objects.js";

export type GitService = "git-upload-pack" | "git-receive-pack";

/** Scopes that let a token read a repository, and write to it (Gitlab::Auth#abilities_for_scopes). */
const DOWNLOAD_SCOPES = ["api", "read_api", "read_repository", "write_repository"] as const;
const PUSH_SCOPES = ["api", "write_repository"] as const;

/** A refusal at the HTTP stage: its status and plain-text message; 401s ask for credentials. */
export class GitAccessError extends Error {
  constructor(readonly status: 401 | 403 | 404, message: string) {
    super(message);
  }
}

export const PROJECT_NOT_FOUND = "The project you were looking for could not be found or you don't have permission to view it.";

const refused = (message: string) => new GitAccessError(403, message);

export interface GitProject {
  access: ProjectAccess;
  /** the project's old path the client used (it was renamed or moved since) */
  movedFrom: string | null;
}

/**
 * GitAccess#check at the HTTP stage (changes "_any"): the project the client names, which it may
 * see, then download (Reporter+, or anyone the project's repository is public to) or push
 * (Developer+ of a project that is not archived), within the token's scopes.
 */
export async function checkGitAccess(ctx: DomainContext, fullPath: string, service: GitService): Promise<GitProject> {
  const push = service === "git-receive-pack";
  if (!ctx.actor && push) throw new GitAccessError(401, "push needs credentials");
  const access = await findProject({ ...ctx, followProjectRedirects: true }, fullPath).catch((error: unknown) => {
    if (!(error instanceof AppError) || error.status !== 404) throw error;
    // without credentials GitLab does not say whether the project exists
    throw ctx.actor ? new GitAccessError(404, PROJECT_NOT_FOUND) : new GitAccessError(401, "the project needs credentials");
  });
  if (ctx.actor) {
    const scopes = push ? PUSH_SCOPES : DOWNLOAD_SCOPES;
    if (!scopes.some((scope) => ctx.actor!.scopes.has(scope))) throw refused(push ? "You are not allowed to upload code." : "You are not allowed to download code.");
  }
  if (!featureAvailable(ctx, access, "repository")) {
    if (!ctx.actor) throw new GitAccessError(401, "the repository needs credentials");
    throw refused(push ? "You are not allowed to push code to this project." : "You are not allowed to download code from this project.");
  }
  if (push) {
    if (access.project.archived) throw refused("You can't push code to an archived project.");
    if (!canPushCode(ctx, access)) throw refused("You are not allowed to push code to this project.");
  }
  const current = projectFullPath(access.project);
  return { access, movedFrom: current.toLowerCase() === fullPath.toLowerCase() ? null : fullPath };
}

export interface PushedRef {
  ref: string;
  oldSha: string;
  newSha: string;
}

/** Where git keeps a push's objects until its pre-receive hook accepts them. */
export interface Quarantine {
  env: Record<string, string>;
}

/**
 * Gitlab::Checks::ChangesAccess: each pushed ref in order (push, branch and tag checks); the first
 * refusal's message, or null when every ref may move.
 */
export async function refusalOfPush(ctx: DomainContext, access: ProjectAccess, refs: PushedRef[], quarantine: Quarantine): Promise<string | null> {
  for (const change of refs) {
    if (!canPushCode(ctx, access)) return "You are not allowed to push code to this project.";
    const refusal = change.ref.startsWith(BRANCH_PREFIX) ? await branchRefusal(ctx, access, change, quarantine)
      : change.ref.startsWith(TAG_PREFIX) ? await tagRefusal(ctx, access, change)
        : null;
    if (refusal) return refusal;
  }
  return null;
}

/** A name git and GitLab take for a full commit id (SHA-1, or SHA-256) at its start. */
const STARTS_WITH_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?/i;

/** Gitlab::Checks::BranchCheck. */
async function branchRefusal(ctx: DomainContext, access: ProjectAccess, change: PushedRef, quarantine: Quarantine): Promise<string | null> {
  const branch = change.ref.slice(BRANCH_PREFIX.length);
  const creation = change.oldSha === NULL_SHA;
  const deletion = change.newSha === NULL_SHA;
  if (deletion && branch === access.project.defaultBranch) return "The default branch of a project cannot be deleted.";
  if (!deletion) {
    if (STARTS_WITH_SHA.test(branch)) return "You cannot create a branch with a SHA-1 or SHA-256 branch name.";
    if (!isValidBranchName(branch)) return "You cannot create a branch with an invalid name.";
  }
  const rules = await protectedBranchesMatching(ctx.db, access.project.id, branch);
  if (!rules.length) return null;
  if (!creation && !deletion && !rules.some((rule) => rule.allowForcePush)) {
    const forced = !(await repositoryOf(ctx, access.project.id).isAncestor(change.oldSha, change.newSha, quarantine.env));
    if (forced) return "You are not allowed to force push code to a protected branch on this project.";
  }
  if (creation) return protectedCreationRefusal(ctx, access, branch, change.newSha);
  if (deletion) {
    if (!canAdminProject(ctx, access)) {
      return "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.";
    }
    return "You can only delete protected branches using the web interface.";
  }
  if (!(await canPushToBranch(ctx, access, branch, rules))) return "You are not allowed to push code to protected branches on this project.";
  return null;
}

async function protectedCreationRefusal(ctx: DomainContext, access: ProjectAccess, branch: string, newSha: string): Promise<string | null> {
  if (await canPushToBranch(ctx, access, branch)) return null;
  if (!(await canMergeToBranch(ctx, access, branch))) return "You are not allowed to create protected branches on this project.";
  const protectedHeads = (await ctx.db.branch.findMany({ where: { projectId: access.project.id }, select: { name: true, headSha: true } }))
    .filter((b) => b.headSha === newSha);
  for (const head of protectedHeads) {
    if ((await protectedBranchesMatching(ctx.db, access.project.id, head.name)).length) return "You can only create protected branches using the web interface and API.";
  }
  return "You can only use an existing protected branch ref as the basis of a new protected branch.";
}

/** Gitlab::Checks::TagCheck (no protected tags here). */
async function tagRefusal(ctx: DomainContext, access: ProjectAccess, change: PushedRef): Promise<string | null> {
  const tag = change.ref.slice(TAG_PREFIX.length);
  const creation = change.oldSha === NULL_SHA;
  const deletion = change.newSha === NULL_SHA;
  if (!creation && !isAdmin(ctx.actor) && !canPushCode(ctx, access)) return "You are not allowed to change existing tags on this project.";
  if (creation && tag === access.project.defaultBranch) return "You cannot use default branch name to create a tag";
  if (!deletion) {
    if (!isValidBranchName(tag) || tag.startsWith("refs/tags/")) return "You cannot create a tag with a prohibited pattern.";
    if (STARTS_WITH_SHA.test(tag)) return "You cannot create a tag with a SHA-1 or SHA-256 tag name.";
  }
  return null;
}
