// The /api/v4 facade: match the route table, decode params, authenticate, then run the route's
// operation (built once at start, as SOFA builds it: operations.ts) through the same envelop
// pipeline as /graphql, and render the answer the way GitLab clients expect.
import { noteRoute } from "../observability/request-scope.js";
import type { ExecutionResult, GraphQLError, GraphQLField, GraphQLSchema } from "graphql";
import type { GetEnvelopedFn } from "@envelop/core";
import { createContext, type Context } from "../context.js";
import { admittingScopes } from "../domain/auth/callers.js";
import { ProjectMovedError } from "../domain/shared/parents.js";
import { requireCoarseAccess, type CoarseAccess } from "../domain/shared/guards.js";
import type { Services } from "../domain/shared/context.js";
import { AppError, appErrorOf, internalError, paramError, routeNotFound } from "../errors.js";
import { collapseSlashes, createMatcher, type RouteMatch } from "./match.js";
import { applyExposure } from "./exposure.js";
import { buildRouteOperations } from "./operations.js";
import { assertWellFormedParams, coerceArgs, parseBody, parseQuery, withFileAlias } from "./params.js";
import { blobResponse, downloadResponse, errorResponse, jsonResponse, noContent, paginationHeaders, textResponse } from "./render.js";
import { routesOf, routeVariantsOf, successStatus, type Route } from "./routes.js";

export const API_PREFIX = "/api/v4";

/** REST requests run in a context marked as such (/graphql's own checks skip them). */
export type RestContext = Context & { restRoute: Route };

export function createRestHandler(schema: GraphQLSchema, services: Services, log: (error: unknown) => void, getEnveloped: GetEnvelopedFn<any>) {
  const routes = routesOf(schema);
  const match = createMatcher(routes);
  const variants = routeVariantsOf(schema, routes);
  const operations = buildRouteOperations(schema, [...routes, ...[...variants.values()].flat().map((v) => v.route)]);

  return async function handle(request: Request): Promise<Response> {
    const response = await answer(request);
    // Grape answers HEAD on every GET route: the GET's status and headers, without a body
    return request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
  };

  async function answer(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      if (url.search.length - 1 > services.config.maxQueryStringLength) return queryTooLong();
      const path = collapseSlashes(url.pathname).slice(API_PREFIX.length);
      const found = match(request.method === "HEAD" ? "GET" : request.method, path);
      if (!found) throw routeNotFound();
      return await run(request, found, url);
    } catch (error) {
      return renderError(error, request, log);
    }
  }

  async function run(request: Request, found: RouteMatch, url: URL): Promise<Response> {
    noteRoute(`${API_PREFIX}${found.route.path}`);
    const { route, ctx, result, query } = await executeRoute(request, found, url);
    if (result.errors?.length) throw executionError(result.errors, log);
    if (successStatus(route) === 204) return noContent();
    if (route.download) return downloadResponse(successStatus(route), ctx.rest.download, request.method === "HEAD");
    if (ctx.rest.answer) return jsonResponse(ctx.rest.status ?? successStatus(route), ctx.rest.answer, ctx.rest.headers ?? {});
    const data = result.data?.[operations.get(route.field)!.fieldName];
    applyExposure(data, operations.get(route.field)!.exposure);
    if (route.text) return blobResponse(successStatus(route), data as { file_name: string; content: string });
    return jsonResponse(successStatus(route), data, { ...paginationHeaders(request, query, ctx.rest), ...ctx.rest.headers });
  }

  /**
   * A read runs while the look at other processes' writes (on PostgreSQL a round trip) is on its
   * way, and again should that look find a cache it used stale; a write waits for the look,
   * which then travels while the params and the body are read.
   */
  function executeRoute(request: Request, found: RouteMatch, url: URL) {
    const caches = services.caches.registry;
    const params = readParams(request, found, url);
    params.catch(() => undefined); // awaited below
    if (request.method === "GET" || request.method === "HEAD") {
      return caches.readSpeculatively(async () => executeOperation(request, await params, Promise.resolve()));
    }
    const cachesRefreshed = caches.refresh();
    cachesRefreshed.catch(() => undefined); // awaited below, unless the params are refused first
    return params.then((read) => executeOperation(request, read, cachesRefreshed));
  }

  /** The request's params (path params win over body and query) and the route they select. */
  async function readParams(request: Request, { route: matched, params }: RouteMatch, url: URL) {
    const query = parseQuery(url.search);
    const body = withFileAlias(await parseBody(request, services.config.maxBodyBytes), matched.files);
    const raw = { ...query, ...body, ...params };
    assertWellFormedParams(raw);
    // the variant its param selects (GET /search?scope=issues), else the route's own field
    const route = variants.get(matched.field)?.find((v) => raw[v.param] === v.value)?.route ?? matched;
    return { query, raw, route, pathParams: Object.keys(params) };
  }

  async function executeOperation(
    request: Request,
    { query, raw, route, pathParams }: Awaited<ReturnType<typeof readParams>>,
    cachesRefreshed: Promise<void>,
  ) {
    const field = rootField(schema, route);
    const ctx = await createContext(services, request, raw, routeScopes(route, field), cachesRefreshed);
    requireCoarseAccess(ctx, field.extensions?.access as CoarseAccess | undefined); // before params, as Grape's before-filters
    const variables = coerceArgs(field.args, raw, pathParams);
    const operation = operations.get(route.field)!;
    const contextValue: RestContext = { ...ctx, restRoute: route };
    const { execute, schema: executable } = getEnveloped(contextValue);
    const result = (await execute({
      schema: executable,
      document: operation.document,
      operationName: operation.operationName,
      variableValues: variables,
      contextValue,
    })) as ExecutionResult;
    return { route, ctx, result, query };
  }
}

/**
 * The domain error behind an execution's errors, a rejected variable, or an internal error
 * (unexpected errors were logged where the pipeline masked them).
 */
function executionError(errors: readonly GraphQLError[], log: (error: unknown) => void): AppError {
  const appError = errors.map(appErrorOf).find(Boolean) ?? variableError(errors);
  if (appError) return appError;
  if (!errors.some((error) => error.extensions?.code === "INTERNAL_SERVER_ERROR")) log(errors);
  return internalError();
}

/** A variable GraphQL itself rejected (a custom scalar's parse): Grape's "x is invalid". */
function variableError(errors: readonly any[]): AppError | undefined {
  const name = errors.map((e) => /^Variable "\$(\w+)"/.exec(String(e?.message))?.[1]).find(Boolean);
  return name ? paramError(`${name} is invalid`) : undefined;
}

/** Token scopes admitted by a route: the verb's defaults plus the field's `extensions.tokenScopes`. */
function routeScopes(route: Route, field: GraphQLField<unknown, unknown>): string[] {
  return admittingScopes(route.method === "GET" ? "read" : "write", field.extensions?.tokenScopes as readonly string[] | undefined);
}

export function rootField(schema: GraphQLSchema, route: Route): GraphQLField<unknown, unknown> {
  const [type, name] = route.field.split(".") as [string, string];
  const root = type === "Query" ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[name];
  if (!field) throw new Error(`route ${route.method} ${route.path}: no root field ${route.field}`);
  return field;
}

function renderError(error: unknown, request: Request, log: (error: unknown) => void): Response {
  if (error instanceof ProjectMovedError && isRead(request)) return movedPermanently(request, error.projectId);
  const appError = appErrorOf(error);
  if (appError) return errorResponse(appError);
  log(error);
  return errorResponse(internalError());
}

const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

/** GET on an old project path: 301 to the same route with the numeric id. */
function movedPermanently(request: Request, projectId: number): Response {
  const url = new URL(request.url);
  const rest = url.pathname.slice(API_PREFIX.length).split("/").filter(Boolean);
  rest[1] = String(projectId); // /projects/:id/...
  const location = `${url.origin}${API_PREFIX}/${rest.join("/")}${url.search}`;
  return textResponse(301, `This resource has been moved permanently to ${location}`, { Location: location });
}

function queryTooLong(): Response {
  return errorResponse(
    new AppError(414, { message: "414 Request-URI Too Large - the query string is too long; send the parameters in the request body instead" }),
  );
}
