// createApp: one fetch-style handler for the whole server (tests call it in process).
import { createYoga, type GraphiQLOptions, type Plugin } from "graphql-yoga";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { GraphQLError, getOperationAST, Kind, type DocumentNode, type ExecutionArgs, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { createContext, type Context } from "./context.js";
import { assertScopeAllows } from "./domain/auth/callers.js";
import type { Services } from "./domain/shared/context.js";
import { appErrorOf, graphqlErrorExtensions } from "./errors.js";
import { API_PREFIX, createRestHandler, type RestContext } from "./rest/adapter.js";
import { collapseSlashes } from "./rest/match.js";
import { assertWellFormedParams } from "./rest/params.js";
import { createApiDocsHandler } from "./rest/openapi/index.js";
import { errorResponse, jsonResponse, textResponse } from "./rest/render.js";
import { AppError } from "./errors.js";
import { schema } from "./schema/index.js";
import { publicSchema } from "./graph/index.js";
import { PUBLIC_GRAPHIQL } from "./graph/graphiql.js";
import { useGraphLimits } from "./graph/shared/limits.js";
import { readStoredAvatar } from "./domain/shared/avatars.js";
import { isMultipart, readGraphqlMultipart } from "./graphql-multipart.js";
import { serveUpload, uploadPathOf } from "./web-uploads.js";
import { redirectToReleaseAsset, releaseDownloadPathOf, RELEASE_DOWNLOAD_ROUTE } from "./web-release-downloads.js";
import { tokenInfo } from "./domain/oauth/token-info.js";
import { credentialsOf } from "./context.js";
import { currentRequest, noteGraphqlOperation, noteRoute, reportError } from "./observability/request-scope.js";
import { countGraphqlOperation } from "./observability/metrics.js";

export interface App {
  fetch(request: Request): Promise<Response>;
}

export function createApp(services: Services, log: (error: unknown) => void = reportError): App {
  const restGraph = createGraphqlServer(services, log, schema, REST_GRAPH_PATH);
  const graphs = new Map(GRAPH_PATHS.map((path) => [path, createGraphqlServer(services, log, publicSchema, path, [useGraphLimits()], PUBLIC_GRAPHIQL)]));
  const rest = createRestHandler(schema, services, log, restGraph.getEnveloped);
  const apiDocs = createApiDocsHandler(schema, API_PREFIX); // public, before the route table
  return {
    async fetch(request) {
      const pathname = collapseSlashes(new URL(request.url).pathname);
      if (pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`)) {
        const docs = apiDocs(request.method, pathname);
        if (!docs) return rest(request); // notes its route once matched
        noteRoute(pathname);
        return docs;
      }
      if (pathname === "/api/v3" || pathname.startsWith("/api/v3/")) {
        noteRoute("/api/v3/*");
        return errorResponse(new AppError(410, { error: "API V3 is no longer supported. Use API V4 instead." }));
      }
      const graph = graphs.get(pathname) ?? (pathname === REST_GRAPH_PATH ? restGraph : undefined);
      if (graph) {
        noteRoute(pathname);
        return graph.fetch(request);
      }
      if (pathname === "/oauth/token/info" && request.method === "GET") {
        noteRoute(pathname);
        return oauthTokenInfo(services, request);
      }
      if (pathname.startsWith(UPLOADS_PREFIX) && (request.method === "GET" || request.method === "HEAD")) {
        noteRoute(`${UPLOADS_PREFIX}*path`);
        return serveAvatar(services, pathname.slice(UPLOADS_PREFIX.length));
      }
      const upload = request.method === "GET" || request.method === "HEAD" ? uploadPathOf(pathname) : null;
      if (upload) {
        noteRoute(upload.template);
        return serveUpload(services, request, upload);
      }
      const releaseDownload = request.method === "GET" || request.method === "HEAD" ? releaseDownloadPathOf(pathname) : null;
      if (releaseDownload) {
        noteRoute(RELEASE_DOWNLOAD_ROUTE);
        return redirectToReleaseAsset(services, request, releaseDownload);
      }
      const probed = probe(pathname);
      if (probed) noteRoute(pathname);
      return probed ?? jsonResponse(404, { error: "404 Not Found" });
    },
  };
}

const UPLOADS_PREFIX = "/uploads/-/system/";

/** The public graph (src/graph/): on /graphql and on GitLab's own GraphQL path. */
export const PUBLIC_GRAPH_PATH = "/api/graphql";
const GRAPH_PATHS = ["/graphql", PUBLIC_GRAPH_PATH];

/**
 * The REST facade's own schema (src/schema/: one root field per REST route, which SOFA runs in
 * process), served for debugging the facade and for clients of the earlier /graphql.
 */
export const REST_GRAPH_PATH = "/-/rest/graphql";

/** Stored avatars (public, as GitLab serves avatars). */
async function serveAvatar(services: Services, relative: string): Promise<Response> {
  const decoded = decodePath(relative);
  const file = decoded === null ? null : await readStoredAvatar(services, decoded);
  if (!file) return jsonResponse(404, { message: "404 Not Found" });
  return new Response(new Uint8Array(file.bytes), {
    headers: { "Content-Type": file.type, "Content-Length": String(file.bytes.length), "X-Content-Type-Options": "nosniff" },
  });
}

/** A percent-decoded path; null when the encoding is malformed. */
function decodePath(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/** Doorkeeper's token info for the OAuth access token given as Bearer (or `access_token`). */
async function oauthTokenInfo(services: Services, request: Request): Promise<Response> {
  try {
    return jsonResponse(200, await tokenInfo(services, credentialsOf(request).token));
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    return errorResponse(appError);
  }
}

/** Unauthenticated health probes. */
function probe(pathname: string): Response | undefined {
  if (pathname === "/-/health") return textResponse(200, "GitLab OK");
  if (pathname === "/-/liveness") return jsonResponse(200, { status: "ok" });
  if (pathname === "/-/readiness") return jsonResponse(200, { status: "ok", master_check: [{ status: "ok" }] });
  return undefined;
}

async function parseMultipartOperation(request: Request) {
  try {
    return await readGraphqlMultipart(request);
  } catch (error) {
    const status = (error as { status?: number }).status ?? 400;
    return jsonResponse(status, { errors: [{ message: (error as Error).message }] });
  }
}

/**
 * graphql-jit (0.8.7) gets three kinds of documents wrong, which run uncompiled instead: several
 * operations (it caches a compiled document without its operation name, so the first would always
 * run), a non-null variable with a default (`$fullPath: ID! = "root/example"`, as in GraphiQL's
 * examples): it ignores the default and answers that the variable was not provided, and a
 * subscription (its field's `subscribe` receives the variables in place of the arguments).
 */
function jitCanRun(document: DocumentNode): boolean {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const nonNullWithDefault = operations[0]?.variableDefinitions?.some((v) => v.defaultValue && v.type.kind === Kind.NON_NULL_TYPE);
  return operations.length === 1 && !nonNullWithDefault && operations[0]!.operation !== "subscription";
}

function asGraphqlError(error: unknown): unknown {
  const appError = appErrorOf(error);
  return appError ? new GraphQLError(appError.message, { extensions: graphqlErrorExtensions(appError) }) : error;
}

type ResultWithErrors = { errors?: readonly GraphQLError[]; stringify?: (result: any) => string };

/**
 * Yoga strips `extensions.http` from the errors it sends; put the status back so GraphQL clients
 * see the same status as REST (`extensions.http.status`), and the request's correlation id (its
 * X-Request-Id, which the log line carries) beside it. Yoga calls `stringify` on each result.
 */
function keepHttpStatus(result: unknown): void {
  const correlationId = currentRequest()?.correlationId;
  for (const item of Array.isArray(result) ? result : [result]) {
    const errors = (item as ResultWithErrors | null)?.errors;
    if (!errors?.length) continue;
    const statuses = errors.map((error) => (error.extensions?.http as { status?: number } | undefined)?.status);
    (item as ResultWithErrors).stringify = (sanitized: { errors?: GraphQLError[] }) =>
      JSON.stringify({ ...sanitized, errors: sanitized.errors?.map((error, i) => withExtensions(error, statuses[i], correlationId)) });
  }
}

function withExtensions(error: GraphQLError, status: number | undefined, correlationId: string | undefined) {
  const json = typeof error.toJSON === "function" ? error.toJSON() : (error as unknown as ReturnType<GraphQLError["toJSON"]>);
  if (!status && !correlationId) return json;
  return { ...json, extensions: { ...json.extensions, ...(status ? { http: { status } } : {}), ...(correlationId ? { correlationId } : {}) } };
}

function createGraphqlServer(
  services: Services,
  log: (error: unknown) => void,
  served: GraphQLSchema,
  graphqlEndpoint: string,
  extraPlugins: Plugin[] = [],
  graphiql: GraphiQLOptions | true = true,
) {
  return createYoga({
    schema: served,
    graphqlEndpoint,
    landingPage: false,
    // Yoga logs every error it masks, domain 4xx included; unexpected ones are logged in maskError.
    logging: { debug: () => {}, info: () => {}, warn: (...args: unknown[]) => log(args), error: () => {} },
    graphiql,
    // GraphiQL with its assets bundled (no CDN), loaded on first use: it is a large module.
    renderGraphiQL: async (options) => (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    context: async ({ request }) => {
      try {
        return { ...(await createContext(services, request)), followProjectRedirects: true };
      } catch (error) {
        throw asGraphqlError(error);
      }
    },
    plugins: [
      ...extraPlugins,
      useGraphQlJit({}, { enableIf: (args: ExecutionArgs) => jitCanRun(args.document) }),
      {
        // Multipart requests are parsed by graphql-upload-minimal (the same Upload values as REST).
        onRequestParse({ request, setRequestParser }: { request: Request; setRequestParser: (parser: (r: Request) => Promise<any>) => void }) {
          if (isMultipart(request)) setRequestParser(parseMultipartOperation);
        },
      },
      {
        // GitLab's HandleMalformedStrings middleware covers /api/graphql too: a null byte or a lone
        // surrogate in a variable is refused before execution (the databases cannot store either).
        onParams({ params }: { params: { variables?: Record<string, unknown> } }) {
          if (!params.variables) return;
          try {
            assertWellFormedParams(params.variables);
          } catch (error) {
            throw asGraphqlError(error);
          }
        },
      },
      { onResultProcess: ({ result }: { result: unknown }) => keepHttpStatus(result) },
      {
        // read_api tokens may run queries only (REST routes admit their own scopes)
        onExecute({ args }: { args: ExecutionArgs }) {
          if ((args.contextValue as Partial<RestContext>).restRoute) return;
          const definition = getOperationAST(args.document, args.operationName);
          noteGraphqlOperation(definition?.name?.value);
          const operation = definition?.operation;
          countGraphqlOperation(definition?.name?.value, operation ?? "unknown");
          try {
            assertScopeAllows((args.contextValue as Context).actor, operation === "mutation" ? "write" : "read");
          } catch (error) {
            throw asGraphqlError(error);
          }
        },
      },
    ],
    maskedErrors: {
      maskError(error, message) {
        const appError = appErrorOf(error);
        const where = error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {};
        if (appError) {
          // originalError stays for the REST facade, which renders the domain error itself
          return new GraphQLError(appError.message, { ...where, originalError: appError, extensions: graphqlErrorExtensions(appError) });
        }
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (!original || original instanceof GraphQLError) return error as GraphQLError;
        log(original);
        return new GraphQLError(message, { ...where, extensions: { code: "INTERNAL_SERVER_ERROR" } });
      },
    },
  });
}
