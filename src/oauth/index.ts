// The OAuth 2 / OpenID Connect provider on the Node request path: /oauth/* (but /oauth/token/info,
// which the app answers) and /.well-known/openid-configuration go to oidc-provider (a Koa app) and
// the sign-in and consent pages; everything else to `fallback` (the app's fetch handler). The
// provider is built on first use: its key set is created then, and servers that never see an
// OAuth request never load it.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Services } from "../domain/shared/context.js";
import { loadKeySet } from "../domain/oauth/keys.js";
import { renderErrorPage, PAGE_HEADERS } from "./pages.js";
import { createInteractionHandler, INTERACTION_PREFIX } from "./interactions.js";
import { oauthRouteOf } from "./routes.js";
import { noteRoute, reportError } from "../observability/request-scope.js";

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Answered by the app itself (GitLab's token info is plain JSON over the token table). */
export const TOKEN_INFO_PATH = "/oauth/token/info";

export function isOAuthPath(pathname: string): boolean {
  if (pathname === TOKEN_INFO_PATH) return false;
  return pathname.startsWith("/oauth/") || pathname === "/.well-known/openid-configuration";
}

interface Mounted {
  provider: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  interactions: ReturnType<typeof createInteractionHandler>;
}

export function withOAuth(services: Services, fallback: NodeListener, log: (error: unknown) => void = reportError): NodeListener {
  let mounted: Promise<Mounted> | undefined;
  const mount = () => (mounted ??= build(services, log).catch((error) => {
    mounted = undefined;
    throw error;
  }));
  return (req, res) => {
    const pathname = pathOf(req.url);
    if (!isOAuthPath(pathname)) return fallback(req, res);
    noteRoute(oauthRouteOf(pathname, INTERACTION_PREFIX));
    mount()
      .then(({ provider, interactions }) => (pathname.startsWith(INTERACTION_PREFIX) ? interactions(req, res, pathname) : provider(req, res)))
      .catch((error) => {
        log(error);
        if (res.headersSent) return void res.destroy();
        const html = renderErrorPage("server_error", "The request could not be handled.");
        res.writeHead(500, PAGE_HEADERS).end(html);
      });
  };
}

async function build(services: Services, log: (error: unknown) => void): Promise<Mounted> {
  const { createProvider } = await import("./provider.js"); // oidc-provider (Koa) loads on first use
  const provider = await createProvider(services, log);
  const { cookieKeys } = await loadKeySet(services);
  return { provider: provider.callback(), interactions: createInteractionHandler(services, provider, `csrf|${cookieKeys[0]}`) };
}

function pathOf(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0]!;
  return path.replace(/\/{2,}/g, "/");
}
