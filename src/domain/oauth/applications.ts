// Instance-wide OAuth applications (lib/api/applications.rb over Doorkeeper's application model):
// created, listed, deleted and given a new secret by administrators. The client id (uid) and the
// secret are random; only the secret's SHA-256 digest is stored, so the secret is shown once.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { isIPv6 } from "node:net";
import type { Application } from "../../generated/prisma/client.js";
import { notFound, paramError, validationError } from "../../errors.js";
import { requireAdmin } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { digest } from "../shared/secrets.js";
import { revokeApplicationArtifacts } from "./store.js";
import { publish } from "../shared/events.js";

/**
 * Doorkeeper's configured scopes in GitLab (`default_scopes` + `optional_scopes`, with the registry
 * and dependency proxy enabled): `enforce_configured_scopes` refuses anything else.
 */
export const APPLICATION_SCOPES = [
  "api", "read_api", "read_user", "create_runner", "manage_runner", "k8s_proxy", "self_rotate", "mcp",
  "read_repository", "write_repository", "read_registry", "write_registry", "read_virtual_registry",
  "write_virtual_registry", "read_observability", "write_observability", "ai_features", "sudo", "admin_mode",
  "read_service_ping", "openid", "profile", "email", "ai_workflows",
] as const;

/** GitLab's dynamic scopes (`enable_dynamic_scopes`): `user:<anything>` matches `user:*`. */
const DYNAMIC_SCOPE_PREFIXES = ["user"];

export type ApplicationWithSecret = Application & { secret: string };

export interface NewApplicationInput {
  name?: string | null;
  redirect_uri?: string | null;
  scopes?: string | null;
  confidential?: boolean | null;
}

/** Doorkeeper's client id: 32 random bytes as 64 hex characters. */
const newUid = () => randomBytes(32).toString("hex");

/** GitLab's UniqueApplicationToken: "gloas-" + 64 hex characters. */
const newSecret = () => `gloas-${randomBytes(32).toString("hex")}`;

const instanceWide = (id: number) => ({ id, ownerId: null });

export async function createApplication(ctx: DomainContext, input: NewApplicationInput): Promise<ApplicationWithSecret> {
  requireAdmin(ctx);
  const { name, redirectUri, scopes } = checkParams(input);
  validateApplication(name, redirectUri, scopes);
  const secret = newSecret();
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.application.create({
    data: {
      name,
      uid: newUid(),
      secretDigest: digest(secret),
      redirectUri,
      scopes: scopes.join(" "),
      confidential: input.confidential ?? true, // an explicit null is the default too
      ownerId: null,
    },
    });
    await publish(tx, ctx, "application", { action: "create", application: created, actorId: ctx.actor!.user.id });
    return created;
  });
  return { ...row, secret };
}

/** Instance-wide applications only (user- and group-owned ones never appear), oldest first. */
export async function listApplications(ctx: DomainContext, page: PageArgs): Promise<Page<Application>> {
  requireAdmin(ctx);
  const where = { ownerId: null };
  return paginate(
    page,
    (cap) => ctx.db.application.count({ where, take: cap }),
    (skip, take) => ctx.db.application.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
}

/** An instance-wide application, for administrators (401, 403), else 404 Application Not Found. */
export async function findApplication(ctx: DomainContext, id: number): Promise<Application> {
  requireAdmin(ctx);
  const application = await ctx.db.application.findFirst({ where: instanceWide(id) });
  if (!application) throw notFound("Application");
  return application;
}

/** Its OAuth grants, codes and tokens are revoked with it. */
export async function deleteApplication(ctx: DomainContext, application: Application): Promise<boolean> {
  await revokeApplicationArtifacts(ctx, application);
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.application.deleteMany({ where: instanceWide(application.id) });
    if (count === 0) throw notFound("Application"); // deleted meanwhile
    await publish(tx, ctx, "application", { action: "destroy", application, actorId: ctx.actor!.user.id });
  });
  return true;
}

/** A new secret replaces the stored digest: the old secret stops matching at once. */
export async function renewApplicationSecret(ctx: DomainContext, application: Application): Promise<ApplicationWithSecret> {
  const secret = newSecret();
  const data = { secretDigest: digest(secret), updatedAt: ctx.now() };
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.application.updateMany({ where: instanceWide(application.id), data });
    if (count === 0) throw notFound("Application"); // deleted meanwhile
    await publish(tx, ctx, "application", { action: "renew_secret", application, actorId: ctx.actor!.user.id });
  });
  return { ...application, ...data, secret };
}

/** Whether `secret` is the application's current secret (the digest comparison a token endpoint would use). */
export function secretMatches(application: Pick<Application, "secretDigest">, secret: string): boolean {
  const [given, stored] = [Buffer.from(digest(secret)), Buffer.from(application.secretDigest)];
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Grape's declared params: name, redirect_uri and scopes required, scopes with `allow_blank: false`
 * (Ruby's `blank?`: empty or whitespace only). Failures are reported together, in declaration order.
 */
function checkParams(input: NewApplicationInput) {
  const problems: string[] = [];
  if (input.name == null) problems.push("name is missing");
  if (input.redirect_uri == null) problems.push("redirect_uri is missing");
  if (input.scopes == null) problems.push("scopes is missing");
  if (input.scopes == null || isBlank(input.scopes)) problems.push("scopes is empty");
  if (problems.length) throw paramError(problems.join(", "));
  // Doorkeeper keeps scopes as a set: split on whitespace, duplicates dropped
  return { name: input.name!, redirectUri: input.redirect_uri!, scopes: [...new Set(words(input.scopes!))] };
}

/** Ruby's `blank?` (whitespace includes Unicode spaces) and `String#split` (ASCII whitespace only). */
const isBlank = (value: string) => value.trim() === "";
const words = (value: string) => value.split(/[ \t\n\v\f\r]+/).filter(Boolean);

/** The model's validations, as `render_validation_error!` reports them: one key per failing attribute. */
function validateApplication(name: string, redirectUri: string, scopes: string[]): void {
  const errors: Record<string, string[]> = {};
  if (isBlank(name)) errors.name = ["can't be blank"];
  const uriErrors = redirectUriErrors(redirectUri);
  if (uriErrors.length) errors.redirect_uri = uriErrors;
  if (!scopes.every(isConfiguredScope)) errors.scopes = ["doesn't match configured on the server."];
  if (Object.keys(errors).length) throw validationError(errors);
}

function isConfiguredScope(scope: string): boolean {
  if ((APPLICATION_SCOPES as readonly string[]).includes(scope)) return true;
  const colon = scope.indexOf(":");
  return colon > 0 && colon < scope.length - 1 && DYNAMIC_SCOPE_PREFIXES.includes(scope.slice(0, colon));
}

// ---- Doorkeeper's RedirectUriValidator over Ruby's RFC 3986 URI parser -------------------------

const URI_MESSAGES = {
  blank: "can't be blank",
  invalid: "must be a valid URI.",
  forbidden: "is forbidden by the server.",
  fragment: "cannot contain a fragment.",
  unspecifiedScheme: "must specify a scheme.",
  relative: "must be an absolute URI.",
} as const;

/** Native-app redirect URIs Doorkeeper accepts as they are (RFC 8252 out-of-band). */
const OOB_URIS = ["urn:ietf:wg:oauth:2.0:oob", "urn:ietf:wg:oauth:2.0:oob:auto"];

/** GitLab's `forbid_redirect_uri`: schemes that would run script. */
const FORBIDDEN_SCHEMES = ["data", "vbscript", "javascript"];

/**
 * Error messages for a redirect_uri value: one or more URIs separated by whitespace. As in
 * Doorkeeper, the first URI that cannot be parsed ends the check (the parser raises).
 */
export function redirectUriErrors(value: string): string[] {
  if (isBlank(value)) return [URI_MESSAGES.blank];
  const errors = new Set<string>();
  for (const candidate of words(value)) {
    if (OOB_URIS.includes(candidate)) continue;
    const uri = parseUri(candidate);
    if (!uri) {
      errors.add(URI_MESSAGES.invalid);
      break;
    }
    if (uri.scheme && FORBIDDEN_SCHEMES.includes(uri.scheme.toLowerCase())) errors.add(URI_MESSAGES.forbidden);
    if (uri.fragment !== undefined) errors.add(URI_MESSAGES.fragment);
    if (uri.opaque || uri.scheme === "localhost") errors.add(URI_MESSAGES.unspecifiedScheme);
    if (uri.scheme === undefined && uri.host === undefined) errors.add(URI_MESSAGES.relative);
  }
  return [...errors];
}

interface ParsedUri {
  scheme?: string;
  host?: string;
  /** the part after "scheme:" when it does not start with "/" (`myapp:callback`, `urn:x`) */
  opaque?: string;
  fragment?: string;
}

// Ruby's URI::RFC3986_Parser grammar (ASCII only; the query is lax, everything else strict).
const HEX2 = "%[0-9A-Fa-f]{2}";
const SEG = `(?:${HEX2}|[!$&-.0-9:;=@A-Z_a-z~])`;
const SEG_NC = `(?:${HEX2}|[!$&-.0-9;=@A-Z_a-z~])`;
const USERINFO = `(?:${HEX2}|[!$&-.0-9:;=A-Z_a-z~])*`;
const HOST = `(\\[[^\\]]*\\]|(?:${HEX2}|[!$&-.0-9;=A-Z_a-z~])*)`;
const AUTHORITY = `//(?:${USERINFO}@)?${HOST}(?::\\d*)?((?:/${SEG}*)*)`;
const TAIL = `(?:\\?[^#]*)?(?:#((?:${HEX2}|[!$&-.0-9:;=@A-Z_a-z~/?])*))?$`;
const ABSOLUTE = new RegExp(`^([A-Za-z][+\\-.0-9A-Za-z]*):(?:${AUTHORITY}|(/(?:${SEG}+(?:/${SEG}*)*)?)|(${SEG}+(?:/${SEG}*)*)|)${TAIL}`);
const RELATIVE = new RegExp(`^(?:${AUTHORITY}|(/(?:${SEG}+(?:/${SEG}*)*)?)|(${SEG_NC}+(?:/${SEG}*)*)|)${TAIL}`);
const IP_FUTURE = /^v[0-9A-Fa-f]+\.[!$&-.0-9:;=A-Z_a-z~]+$/;

/** The URI's parts, or null where Ruby's `URI.parse` raises InvalidURIError. */
function parseUri(text: string): ParsedUri | null {
  const absolute = ABSOLUTE.exec(text);
  const match = absolute ?? RELATIVE.exec(text);
  if (!match) return null;
  const [scheme, host, fragment] = absolute ? [match[1], match[2], match[6]] : [undefined, match[1], match[5]];
  const opaque = absolute ? match[5] : undefined;
  if (host?.startsWith("[") && !validIpLiteral(host.slice(1, -1))) return null;
  // URI::HTTP(S) without a host: "http://" is not a valid URI
  if (scheme && ["http", "https"].includes(scheme.toLowerCase()) && host === "") return null;
  return { scheme, host, opaque, fragment };
}

const validIpLiteral = (inner: string) => (isIPv6(inner) && !inner.includes("%")) || IP_FUTURE.test(inner);
