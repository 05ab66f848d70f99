// oidc-provider configured as GitLab's Doorkeeper: GitLab's paths, the applications as clients,
// GitLab's scopes and claims, 2-hour access tokens, refresh tokens always issued and rotated, PKCE
// required for public clients, introspection and revocation of a client's own tokens, and the
// device authorization grant.
import { OAUTH_ROUTES } from "./routes.js";
import Provider from "oidc-provider";
import type { Services } from "../domain/shared/context.js";
import { APPLICATION_SCOPES } from "../domain/oauth/applications.js";
import { claimsOf, findActiveUser } from "../domain/oauth/accounts.js";
import { clientSecretMatches, findClientMetadata } from "../domain/oauth/clients.js";
import { loadKeySet } from "../domain/oauth/keys.js";
import { ArtifactStore } from "../domain/oauth/store.js";
import { INTERACTION_PREFIX } from "./interactions.js";
import { PAGE_HEADERS, renderDeviceConfirm, renderDeviceInput, renderDeviceSuccess, renderErrorPage } from "./pages.js";

/** GitLab's Doorkeeper access_token_expires_in. */
const ACCESS_TOKEN_TTL = 2 * 60 * 60;
const DAY = 24 * 60 * 60;


const GROUP_CLAIMS = ["owner", "maintainer", "developer"].map((level) => `https://gitlab.org/claims/groups/${level}`);
const OPENID_CLAIMS = ["sub", "name", "nickname", "preferred_username", "profile", "picture", "groups", "groups_direct", ...GROUP_CLAIMS];

type Ctx = { oidc: { route?: string; entities: Record<string, any> } };
type Token = { clientId?: string };
type Client = { clientId: string; clientSecret?: string };

export async function createProvider(services: Services, log: (error: unknown) => void): Promise<Provider> {
  const keys = await loadKeySet(services);
  const secure = services.config.publicUrl.startsWith("https:");
  const provider = new Provider(services.config.publicUrl, {
    adapter: (model: string) => (model === "Client" ? clientStore(services) : new ArtifactStore(services, model)),
    jwks: { keys: keys.jwks },
    cookies: {
      keys: keys.cookieKeys,
      long: { httpOnly: true, sameSite: "lax", secure },
      short: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      names: { session: "_forgeline_oauth_session", interaction: "_forgeline_oauth_interaction", resume: "_forgeline_oauth_resume" },
    },
    routes: OAUTH_ROUTES,
    responseTypes: ["code"], // GitLab's Doorkeeper: the authorization code flow only
    scopes: [...APPLICATION_SCOPES],
    claims: { openid: OPENID_CLAIMS, profile: OPENID_CLAIMS.slice(1), email: ["email", "email_verified"] },
    conformIdTokenClaims: false, // GitLab's ID tokens carry the claims
    findAccount: async (_ctx: unknown, sub: string) => {
      const user = await findActiveUser(services, sub);
      return user ? { accountId: sub, claims: () => claimsOf(services, user) } : undefined;
    },
    clientDefaults: { grant_types: ["authorization_code", "refresh_token"], id_token_signed_response_alg: "RS256" },
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "none"],
    enabledJWA: { idTokenSigningAlgValues: ["RS256"] },
    pkce: { required: (_ctx: unknown, client: { clientAuthMethod: string }) => client.clientAuthMethod === "none" },
    features: {
      devInteractions: { enabled: false },
      introspection: { enabled: true, allowedPolicy: ownToken },
      revocation: { enabled: true, allowedPolicy: ownToken },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      deviceFlow: { enabled: true, charset: "base-20", mask: "****-****", ...devicePages },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PREFIX}${interaction.uid}` },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: () => true,
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 10 * 60, // Doorkeeper's authorization_code_expires_in
      DeviceCode: 5 * 60, // doorkeeper-device_authorization_grant's device_code_expires_in
      IdToken: ACCESS_TOKEN_TTL,
      RefreshToken: 90 * DAY,
      Interaction: 60 * 60,
      Session: 14 * DAY,
      Grant: 90 * DAY,
    },
    // GitLab's CORS rules (config/initializers/cors.rb): any origin may call the token, revocation,
    // userinfo, keys and discovery endpoints, without credentials (single-page public clients)
    clientBasedCORS: () => true,
    renderError: (ctx: PageCtx, out: Record<string, string>) => page(ctx, renderErrorPage(out.error ?? "server_error", out.error_description ?? "")),
  });
  provider.proxy = true; // behind a TLS terminator: X-Forwarded-Proto says https
  replaceSecretComparison(provider);
  provider.on("server_error", (_ctx: unknown, error: unknown) => log(error));
  provider.use(async (ctx, next) => {
    if (secure) ctx.cookies.secure = true; // PUBLIC_URL is https: what the browser sees
    await next();
    // Doorkeeper's token response also says when the token was created
    if (ctx.path === OAUTH_ROUTES.token && ctx.status === 200 && ctx.body?.access_token) {
      ctx.body = { ...ctx.body, created_at: Math.floor(services.now().getTime() / 1000) };
    }
  });
  return provider;
}

type PageCtx = { type: string; body: string; set(headers: Record<string, string>): void; oidc: { client?: { clientId: string; clientName?: string } } };

function page(ctx: PageCtx, html: string): void {
  ctx.set(PAGE_HEADERS);
  ctx.body = html;
}

const appNameOf = (ctx: PageCtx) => ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId ?? "";

/** GitLab's device authorization grant (17.2): the code entry, confirmation and success pages. */
const devicePages = {
  userCodeInputSource: async (ctx: PageCtx, form: string, _out: unknown, error?: { name?: string; userCode?: string }) => {
    const message = !error ? undefined : error.userCode || error.name === "NoCodeError" ? "The code is not valid. Try again." : "The request could not be completed. Start again on the device.";
    page(ctx, renderDeviceInput(form, message));
  },
  userCodeConfirmSource: async (ctx: PageCtx, form: string, _client: unknown, _info: unknown, userCode: string) =>
    page(ctx, renderDeviceConfirm(form, appNameOf(ctx), userCode)),
  successSource: async (ctx: PageCtx) => page(ctx, renderDeviceSuccess(appNameOf(ctx))),
};

/** Introspection and revocation: a client may only ask about its own tokens. */
async function ownToken(_ctx: Ctx, client: Client, token: Token): Promise<boolean> {
  return token.clientId === client.clientId;
}

function clientStore(services: Services) {
  return { find: (id: string) => findClientMetadata(services, id) };
}

/**
 * The client metadata carries the secret's digest (the secret itself is never stored): compare the
 * given secret's digest. The provider offers no option for this, so its one comparison method is
 * replaced on this provider's own Client class.
 */
function replaceSecretComparison(provider: Provider): void {
  const Client = provider.Client as unknown as { prototype: { compareClientSecret(this: Client, given: unknown): boolean } };
  Client.prototype.compareClientSecret = function (this: Client, given: unknown) {
    return clientSecretMatches(this.clientSecret, given);
  };
}
