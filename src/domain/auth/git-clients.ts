// Who a git client is (Gitlab::Auth.find_for_git_client): HTTP Basic credentials whose password is
// a personal, project, group or OAuth access token (any username; GitLab's documented one for
// OAuth is `oauth2`), else a username or e-mail with the account's password. An expired or revoked
// token, a wrong password, and a blocked or banned user all fail alike (401); a deactivated user
// authenticates and is refused by the access check (403 with the reason).
import type { Actor, Services } from "../shared/context.js";
import { digest } from "../shared/secrets.js";
import { signIn } from "../oauth/accounts.js";
import { apiAccessDeniedReason } from "../users/states.js";
import { findTokenByDigest, lastUsedAt, markTokenUsed } from "./token-store.js";

/** The credentials could not be used: 401 with GitLab's "HTTP Basic: Access denied" answer. */
export class GitAuthenticationError extends Error {}

/** The credentials are right but their user may not use git (GitAccess#check_active_user!): 403 with the reason. */
export class GitUserRefusedError extends Error {}

/** An actor authenticated by password acts with every ability, as GitLab's full authentication. */
const PASSWORD_SCOPES: ReadonlySet<string> = new Set(["api"]);

const LAST_USED_INTERVAL_MS = 10 * 60 * 1000;

export async function authenticateGitClient(services: Services, login: string, password: string, address: string): Promise<Actor> {
  if (!password) throw new GitAuthenticationError();
  const token = await findTokenByDigest(services, digest(password));
  if (token) {
    const now = services.now();
    if (token.revoked || (token.expiresAt && token.expiresAt <= now) || blocked(token.user)) throw new GitAuthenticationError();
    const refusal = apiAccessDeniedReason(services, token.user);
    if (refusal) throw new GitUserRefusedError(refusal);
    const last = lastUsedAt(services, token);
    if (!last || now.getTime() - last.getTime() >= LAST_USED_INTERVAL_MS) await markTokenUsed(services, token, now);
    return { user: token.user, scopes: new Set(token.scopes.split(" ").filter(Boolean)), tokenId: token.id };
  }
  const signedIn = await signIn(services, login, password, address);
  if (!("user" in signedIn)) throw new GitAuthenticationError();
  return { user: signedIn.user, scopes: PASSWORD_SCOPES, tokenId: null };
}

/** Users who cannot log in at all: their credentials fail as wrong ones do. */
const blocked = (user: { state: string }) => user.state !== "active" && user.state !== "deactivated";
