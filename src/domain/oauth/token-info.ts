// GET /oauth/token/info: Doorkeeper's token info with GitLab's additions (`scopes`,
// `expires_in_seconds`), for a live OAuth access token; anything else is Doorkeeper's 401.
import { AppError } from "../../errors.js";
import type { Services } from "../shared/context.js";
import { digest } from "../shared/secrets.js";

export interface TokenInfo {
  resource_owner_id: number | null;
  scope: string[];
  expires_in: number | null;
  application: { uid: string | null };
  created_at: number;
  scopes: string[];
  expires_in_seconds: number | null;
}

const DESCRIPTION = "The access token is invalid";

const invalidToken = () =>
  new AppError(
    401,
    { error: "invalid_token", error_description: DESCRIPTION },
    { "WWW-Authenticate": `Bearer realm="Doorkeeper", error="invalid_token", error_description="${DESCRIPTION}"` },
  );

export async function tokenInfo(services: Services, token: string | undefined): Promise<TokenInfo> {
  if (!token) throw invalidToken();
  const row = await services.db.oauthArtifact.findUnique({ where: { key: digest(token) } });
  const now = services.now();
  if (!row || row.model !== "AccessToken" || (row.expiresAt && row.expiresAt <= now)) throw invalidToken();
  const payload = JSON.parse(row.payload) as { accountId?: string; scope?: string; clientId?: string; iat?: number };
  const scopes = (payload.scope ?? "").split(" ").filter(Boolean);
  const expiresIn = row.expiresAt ? Math.max(0, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000)) : null;
  return {
    resource_owner_id: payload.accountId ? Number(payload.accountId) : null,
    scope: scopes,
    expires_in: expiresIn,
    application: { uid: payload.clientId ?? null },
    created_at: payload.iat ?? Math.floor(row.createdAt.getTime() / 1000),
    scopes,
    expires_in_seconds: expiresIn,
  };
}
