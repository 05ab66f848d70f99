// Git's smart HTTP protocol (v0 and v2) in front of the rest of the server, as GitLab's Workhorse
// and Gitaly serve it: authentication and GitAccess's checks first (plain-text answers, which git
// prints as "remote: ..."), then `git upload-pack` / `git receive-pack --stateless-rpc` streamed
// both ways (a pack is never held in memory; gzip request bodies are inflated on the way), killed
// when the client goes away. Pushes run the hooks of hook-channel.ts through a PushSession.
import { AsyncResource } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { spawnGit, gitEnvironment } from "../git/command.js";
import { HookChannel, installHookScripts, type HookRequest } from "../git/hook-channel.js";
import { authenticateGitClient, GitAuthenticationError, GitUserRefusedError } from "../domain/auth/git-clients.js";
import type { Actor, DomainContext, Services } from "../domain/shared/context.js";
import { systemContext } from "../domain/shared/context.js";
import { checkGitAccess, GitAccessError, type GitProject, type GitService } from "../domain/repository/git-access.js";
import { PushSession } from "../domain/repository/pushes.js";
import { gitRoute, type GitRoute } from "./paths.js";
import { noteRoute, noteUser, reportError } from "../observability/request-scope.js";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

const TEXT = "text/plain; charset=utf-8";

/** Refs git keeps for GitLab itself: hidden from pushes (and the last three from fetches), as Gitaly hides them. */
const HIDDEN_FROM_PUSH = ["refs/environments/", "refs/keep-around/", "refs/merge-requests/", "refs/pipelines/", "refs/remotes/", "refs/tmp/"];
const HIDDEN_FROM_FETCH = ["refs/keep-around/", "refs/remotes/", "refs/tmp/"];
/**
 * How much of its pack files a fetch's git maps at once. git's default (8 GiB windows of 1 GiB on
 * 64-bit) maps a whole pack while sending it, and those pages count in the server's memory; 8 MiB
 * windows within 32 MiB keep a clone of any size to about that much (measured by `npm run bench:git`).
 */
const FETCH_PACK_MAPPING = ["core.packedGitWindowSize=8m", "core.packedGitLimit=32m"];

const accessDenied = (publicUrl: string) =>
  "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token " +
  "instead of a password. If a token was provided, it was either incorrect, expired, or improperly scoped. " +
  `See ${publicUrl}/help/topics/git/troubleshooting_git.md#error-on-git-fetch-http-basic-access-denied`;

export function withGitHttp(services: Services, next: Listener, log: (error: unknown) => void = reportError): Listener {
  const hooksPath = installHookScripts(path.join(services.config.repositoriesDir, ".hooks"));
  const hooks = new HookChannel();
  return (req, res) => {
    const route = gitRoute(req.method, req.url);
    if (!route) return next(req, res);
    noteRoute(`/:namespace/:project${route.dotGit ? ".git" : ""}/${route.action}`);
    serve(services, { hooks, hooksPath }, route, req, res).catch((error) => {
      log(error);
      if (!res.headersSent) plain(res, 500, "Internal Server Error");
      else res.destroy();
    });
  };
}

interface HookSetup {
  hooks: HookChannel;
  hooksPath: string;
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": TEXT, ...headers });
  res.end(message ? `${message}\n` : "");
}

async function serve(services: Services, setup: HookSetup, route: GitRoute, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (route.action === "info/refs" && req.method === "HEAD") return plain(res, 403, "");
  const url = new URL(req.url!, "http://localhost");
  if (route.action === "info/refs" && !route.dotGit) {
    // GitLab sends git to the `.git` URL; git then uses it for the POSTs too
    res.writeHead(301, { Location: `/${encodePath(route.fullPath)}.git/info/refs${url.search}`, "Content-Type": TEXT });
    return void res.end();
  }
  const service = route.action === "info/refs" ? url.searchParams.get("service") : route.action;
  // what other processes changed (a revoked token, a removed member) counts from this request on
  await services.caches.registry.refresh();
  let actor: Actor | null;
  try {
    actor = await authenticate(services, req);
    noteUser(actor?.user);
  } catch (error) {
    if (error instanceof GitAuthenticationError) return challenge(services, res);
    if (error instanceof GitUserRefusedError) return plain(res, 403, error.message);
    throw error;
  }
  if (service !== "git-upload-pack" && service !== "git-receive-pack") {
    return actor ? plain(res, 403, "The command you're trying to execute is not allowed.") : challenge(services, res);
  }
  const ctx: DomainContext = { ...systemContext(services, actor), followProjectRedirects: true };
  let target: GitProject;
  try {
    target = await checkGitAccess(ctx, route.fullPath, service);
  } catch (error) {
    if (!(error instanceof GitAccessError)) throw error;
    return error.status === 401 ? challenge(services, res) : plain(res, error.status, error.message);
  }
  if (!services.git.exists(target.access.project.id)) return plain(res, 404, "A repository for this project does not exist yet.");
  if (route.action === "info/refs") return advertise(services, target, service, req, res);
  if (req.headers["content-type"] !== `application/x-${service}-request`) return plain(res, 415, `Content-Type must be application/x-${service}-request`);
  const body = requestBody(req);
  if (!body) return plain(res, 415, "Content-Encoding must be gzip or none");
  if (service === "git-upload-pack") return runService(services, target, service, body, req, res, {});
  return receivePack(ctx, services, setup, target, body, req, res);
}

const encodePath = (fullPath: string) => fullPath.split("/").map(encodeURIComponent).join("/");

/** 401 asking for credentials, GitLab's text. */
function challenge(services: Services, res: ServerResponse): void {
  plain(res, 401, accessDenied(services.config.publicUrl), { "WWW-Authenticate": 'Basic realm="GitLab"' });
}

async function authenticate(services: Services, req: IncomingMessage): Promise<Actor | null> {
  const header = req.headers.authorization;
  if (!header) return null;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) throw new GitAuthenticationError();
  const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) throw new GitAuthenticationError();
  return authenticateGitClient(services, decoded.slice(0, colon), decoded.slice(colon + 1), req.socket.remoteAddress ?? "");
}

/** The client's protocol version (Git-Protocol header), as Gitaly accepts it: version=2 or version=1. */
function protocolEnv(req: IncomingMessage): Record<string, string> {
  const header = req.headers["git-protocol"];
  return header === "version=2" || header === "version=1" ? { GIT_PROTOCOL: header } : {};
}

const pktLine = (text: string) => `${(text.length + 4).toString(16).padStart(4, "0")}${text}`;

function gitArgs(service: GitService, extra: string[]): string[] {
  const settings = service === "git-upload-pack"
    ? [...HIDDEN_FROM_FETCH.map((ref) => `uploadpack.hideRefs=${ref}`), ...FETCH_PACK_MAPPING]
    : HIDDEN_FROM_PUSH.map((ref) => `receive.hideRefs=${ref}`);
  return [...settings.flatMap((setting) => ["-c", setting]), ...extra];
}

/** GET info/refs: the service line and a flush (GitLab sends them for protocol v2 too), then git's advertisement. */
function advertise(services: Services, target: GitProject, service: GitService, req: IncomingMessage, res: ServerResponse): void {
  const gitDir = services.git.pathOf(target.access.project.id);
  const child = spawnGit([...gitArgs(service, []), service.slice(4), "--stateless-rpc", "--advertise-refs", gitDir], { env: gitEnvironment(protocolEnv(req)) });
  child.stdin!.end();
  child.stderr!.resume();
  res.writeHead(200, { "Content-Type": `application/x-${service}-advertisement`, "Cache-Control": "no-cache" });
  res.write(`${pktLine(`# service=${service}\n`)}0000`);
  child.stdout!.pipe(res);
  res.on("close", () => child.kill("SIGKILL"));
}

/** The request body, inflated when gzip; null for another Content-Encoding. */
function requestBody(req: IncomingMessage): Readable | null {
  const encoding = (req.headers["content-encoding"] ?? "").toLowerCase();
  if (encoding === "" || encoding === "identity") return req;
  if (encoding !== "gzip" && encoding !== "x-gzip") return null;
  const gunzip = createGunzip();
  req.pipe(gunzip);
  return gunzip;
}

/** A POST: git's stateless RPC with the body on its input and its output as the answer. */
function runService(
  services: Services, target: GitProject, service: GitService, body: Readable, req: IncomingMessage, res: ServerResponse,
  extra: { args?: string[]; env?: Record<string, string> },
): Promise<void> {
  const gitDir = services.git.pathOf(target.access.project.id);
  const child = spawnGit([...gitArgs(service, extra.args ?? []), service.slice(4), "--stateless-rpc", gitDir], {
    env: gitEnvironment({ ...protocolEnv(req), ...extra.env }),
  });
  const stop = () => child.kill("SIGKILL");
  child.stdin!.on("error", stop);
  body.on("error", stop); // a malformed gzip body
  body.pipe(child.stdin!);
  child.stderr!.resume();
  res.writeHead(200, { "Content-Type": `application/x-${service}-result`, "Cache-Control": "no-cache" });
  child.stdout!.pipe(res);
  // the client went away before the answer was complete: git stops
  res.on("close", () => {
    if (!res.writableFinished) stop();
  });
  req.on("aborted", stop);
  return new Promise((resolve) => child.on("close", () => resolve()));
}

/** POST git-receive-pack: with the hooks that check and record the push, and GitLab's push size limit. */
async function receivePack(
  ctx: DomainContext, services: Services, setup: HookSetup, target: GitProject, body: Readable, req: IncomingMessage, res: ServerResponse,
): Promise<void> {
  const session = new PushSession(ctx, target);
  // the hooks reach this process on the channel's own connections: bound to this request, their
  // statements count in its log line and the events they fire carry its correlation id
  const channel = await setup.hooks.open(AsyncResource.bind((request: HookRequest) => hookAnswer(session, request)));
  const maxBytes = services.config.maxPushSizeMb * 1024 * 1024;
  const args = ["-c", `core.hooksPath=${setup.hooksPath}`, ...(maxBytes > 0 ? ["-c", `receive.maxInputSize=${maxBytes}`] : [])];
  try {
    await runService(services, target, "git-receive-pack", body, req, res, { args, env: channel.env });
  } finally {
    channel.close();
    await session.finish();
  }
}

function hookAnswer(session: PushSession, request: HookRequest) {
  const refs = request.updates.map((u) => ({ ref: u.ref, oldSha: u.oldSha, newSha: u.newSha }));
  if (request.hook === "post-receive") return session.postReceive(refs);
  const quarantine = request.quarantinePath;
  const gitDir = quarantine ? path.dirname(path.dirname(quarantine)) : null;
  const env: Record<string, string> = quarantine && gitDir
    ? { GIT_OBJECT_DIRECTORY: quarantine, GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(gitDir, "objects") }
    : {};
  return session.preReceive(refs, env);
}
