// The instance's applications as oidc-provider clients. A confidential application authenticates
// with its secret (HTTP Basic or in the body); only the secret's digest is stored, so the client
// metadata carries the digest and the provider's secret comparison is replaced by `secretMatches`.
// Other applications are public clients: no secret, PKCE required.
import type { Application } from "../../generated/prisma/client.js";
import type { Services } from "../shared/context.js";
import { APPLICATION_SCOPES, secretMatches } from "./applications.js";

export interface ClientMetadata {
  client_id: string;
  client_name: string;
  client_secret?: string;
  redirect_uris: string[];
  scope: string;
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  application_type: "web" | "native";
}

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The provider's application types (OpenID Connect registration): "web" when every redirect URI is
 * http(s), else "native" (custom schemes such as `com.example.app:/callback`), whose rules drop
 * http URIs off the loopback interface and https URIs on it.
 */
function redirectsFor(uris: string[]): Pick<ClientMetadata, "application_type" | "redirect_uris"> {
  if (uris.every((uri) => /^https?:/i.test(uri))) return { application_type: "web", redirect_uris: uris };
  return { application_type: "native", redirect_uris: uris.filter(nativeAllowed) };
}

function nativeAllowed(uri: string): boolean {
  const parsed = URL.parse(uri);
  if (!parsed) return false;
  if (parsed.protocol === "http:") return LOOPBACK_HOSTS.has(parsed.hostname);
  if (parsed.protocol === "https:") return !LOOPBACK_HOSTS.has(parsed.hostname);
  return true;
}

/** The redirect URIs an application registered (whitespace-separated, as stored). */
export const redirectUrisOf = (application: Pick<Application, "redirectUri">) => application.redirectUri.split(/\s+/).filter(Boolean);

export async function findClientMetadata(services: Pick<Services, "db">, clientId: string): Promise<ClientMetadata | undefined> {
  const application = await services.db.application.findUnique({ where: { uid: clientId } });
  if (!application || application.ownerId !== null) return undefined;
  return {
    client_id: application.uid,
    client_name: application.name,
    ...(application.confidential ? { client_secret: application.secretDigest } : {}),
    ...redirectsFor(redirectUrisOf(application)),
    // the provider knows the configured scopes only (GitLab's dynamic `user:*` scopes are not offered)
    scope: application.scopes.split(" ").filter((scope) => (APPLICATION_SCOPES as readonly string[]).includes(scope)).join(" "),
    grant_types: ["authorization_code", "refresh_token", DEVICE_CODE_GRANT],
    response_types: ["code"],
    token_endpoint_auth_method: application.confidential ? "client_secret_basic" : "none",
  };
}

/** Whether `given` is the secret whose digest the client metadata carries (constant time). */
export function clientSecretMatches(storedDigest: string | undefined, given: unknown): boolean {
  return typeof storedDigest === "string" && typeof given === "string" && secretMatches({ secretDigest: storedDigest }, given);
}
