// The interaction routes oidc-provider sends the browser to: GET /oauth/interaction/<uid> shows the
// sign-in form (no session yet) or the consent page; the forms post to .../login, .../confirm and
// .../abort. Every post carries a CSRF token bound to the interaction (an HMAC under the provider's
// cookie key) and, when the browser sends an Origin, must come from this server's origin.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { InteractionDetails } from "oidc-provider";
import type { Services } from "../domain/shared/context.js";
import { recordFailedSignIn, recordSignIn, signIn } from "../domain/oauth/accounts.js";
import { PAGE_HEADERS, renderConsent, renderErrorPage, renderSignIn } from "./pages.js";

export const INTERACTION_PREFIX = "/oauth/interaction/";

const MAX_FORM_BYTES = 16 * 1024;
const INVALID_LOGIN = "Invalid login or password.";
const RATE_LIMITED = "Too many failed sign-in attempts. Try again later.";

class FormError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export function createInteractionHandler(services: Services, provider: Provider, csrfKey: string) {
  const csrfFor = (uid: string) => createHmac("sha256", csrfKey).update(`csrf|${uid}`).digest("base64url");

  async function page(req: IncomingMessage, res: ServerResponse, details: InteractionDetails, error?: { status: number; message: string; login?: string }) {
    const client = await provider.Client.find(details.params.client_id);
    const appName = client?.clientName ?? details.params.client_id;
    const base = `${INTERACTION_PREFIX}${details.uid}`;
    const csrf = csrfFor(details.uid);
    if (details.prompt.name === "login") {
      return send(res, error?.status ?? 200, renderSignIn({ action: `${base}/login`, csrf, appName, login: error?.login, error: error?.message }));
    }
    const user = await services.db.user.findUnique({ where: { id: Number(details.session?.accountId) } });
    const scopes = (details.params.scope ?? "").split(" ").filter(Boolean);
    return send(res, 200, renderConsent({ action: `${base}/confirm`, abort: `${base}/abort`, csrf, appName, username: user?.username ?? "", scopes }));
  }

  async function login(req: IncomingMessage, res: ServerResponse, details: InteractionDetails, form: URLSearchParams) {
    if (details.prompt.name !== "login") throw new FormError(400, "This sign-in form has expired.");
    const loginName = form.get("login") ?? "";
    const result = await signIn(services, loginName, form.get("password") ?? "", req.socket.remoteAddress ?? "unknown");
    const client = { userAgent: req.headers["user-agent"] ?? null, ipAddress: req.socket.remoteAddress ?? null };
    if ("refused" in result && result.refused === "invalid") await recordFailedSignIn(services, loginName, client);
    if ("refused" in result) {
      const [status, message] = result.refused === "rate_limited" ? [429, RATE_LIMITED] : [401, INVALID_LOGIN];
      return page(req, res, details, { status, message, login: loginName });
    }
    await recordSignIn(services, result.user, client);
    await provider.interactionFinished(req, res, { login: { accountId: String(result.user.id) } }, { mergeWithLastSubmission: false });
  }

  async function confirm(req: IncomingMessage, res: ServerResponse, details: InteractionDetails) {
    if (details.prompt.name !== "consent" || !details.session) throw new FormError(400, "This consent form has expired.");
    const grant = (details.grantId && (await provider.Grant.find(details.grantId))) ||
      new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  async function abort(req: IncomingMessage, res: ServerResponse) {
    const result = { error: "access_denied", error_description: "The resource owner or authorization server denied the request." };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const [uid, action = ""] = pathname.slice(INTERACTION_PREFIX.length).split("/");
    try {
      const details = await provider.interactionDetails(req, res).catch(() => {
        throw new FormError(400, "The sign-in request has expired or was not started here. Start again from the application.");
      });
      if (details.uid !== uid) throw new FormError(400, "The sign-in request does not match this page.");
      if (req.method === "GET" && action === "") return await page(req, res, details);
      if (req.method !== "POST" || !["login", "confirm", "abort"].includes(action)) throw new FormError(404, "Not found.");
      checkOrigin(services, req);
      const form = await readForm(req);
      if (!sameToken(form.get("authenticity_token") ?? "", csrfFor(details.uid))) throw new FormError(422, "Invalid authenticity token.");
      if (action === "login") return await login(req, res, details, form);
      if (action === "confirm") return await confirm(req, res, details);
      return await abort(req, res);
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      send(res, error.status, renderErrorPage("invalid_request", error.message));
    }
  };
}

function checkOrigin(services: Services, req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== new URL(services.config.publicUrl).origin) throw new FormError(403, "Cross-site form submission refused.");
}

function sameToken(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) throw new FormError(415, "Forms are sent URL-encoded.");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new FormError(413, "The form is too large.");
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { ...PAGE_HEADERS, "Content-Length": Buffer.byteLength(html) });
  res.end(html);
}
