// The provider's endpoints (oidc-provider's `routes`), apart from the provider so that the request
// path can name them without loading oidc-provider.
export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  revocation: "/oauth/revoke",
  introspection: "/oauth/introspect",
  userinfo: "/oauth/userinfo",
  device_authorization: "/oauth/authorize_device",
  code_verification: "/oauth/device",
  jwks: "/oauth/discovery/keys",
} as const;

const FIXED_ROUTES = new Set<string>([...Object.values(OAUTH_ROUTES), "/.well-known/openid-configuration"]);

/** The route template of an OAuth path, for the request log and the metrics. */
export function oauthRouteOf(pathname: string, interactionPrefix: string): string {
  if (FIXED_ROUTES.has(pathname)) return pathname;
  if (pathname.startsWith(interactionPrefix)) return `${interactionPrefix}:uid${pathname.slice(interactionPrefix.length).includes("/") ? "/:action" : ""}`;
  return "/oauth/*";
}
