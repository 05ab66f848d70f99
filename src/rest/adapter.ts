// The /api/v4 facade: match the route table, decode params, authenticate, then let SOFA run the
// route's root field (SOFA builds the operation with the entity's full selection) and render the
// answer the way GitLab clients expect.
import { execute, type ExecutionArgs, type GraphQLField, type GraphQLSchema } from "graphql";
import { filterSchema } from "@graphql-tools/utils";
import { useSofa } from "sofa-api";
import { createContext, type Context } from "../context.js";
import { admittingScopes } from "../domain/auth.js";
import { ProjectMovedError, requireCoarseAccess, type CoarseAccess } from "../domain/access.js";
import type { Services } from "../domain/context.js";
import { AppError, appErrorOf, internalError, paramError, routeNotFound } from "../errors.js";
import { collapseSlashes, createMatcher, type RouteMatch } from "./match.js";
import { coerceArgs, isUpload, parseBody, parseQuery, withFileAlias } from "./params.js";
import { blobResponse, errorResponse, jsonResponse, noContent, paginationHeaders, textResponse } from "./render.js";
import { routes, successStatus, type Route } from "./routes.js";

export const API_PREFIX = "/api/v4";

interface RestServerContext {
  forgeline: Context & { variables: Record<string, unknown> };
}

export function createRestHandler(schema: GraphQLSchema, services: Services, log: (error: unknown) => void) {
  const match = createMatcher(routes);
  for (const route of routes) checkFileParams(schema, route);
  for (const route of routes) checkTextRoute(schema, route);
  const sofa = createSofaRouter(schema, log);

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

  async function run(request: Request, { route, params }: RouteMatch, url: URL): Promise<Response> {
    const query = parseQuery(url.search);
    const body = withFileAlias(await parseBody(request, services.config.maxBodyBytes), route.files);
    const raw = { ...query, ...body, ...params }; // path params win over body and query
    const field = rootField(schema, route);
    const ctx = await createContext(services, request, raw, routeScopes(route, field));
    requireCoarseAccess(ctx, field.extensions?.access as CoarseAccess | undefined); // before params, as Grape's before-filters
    const variables = coerceArgs(field.args, raw);
    // SOFA only picks the root field here (by the field's first route: later rows with the same
    // field are GitLab's aliases); the variables it would parse are replaced in `execute`.
    const sofaPath = sofaRoutes.get(route.field)!.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(variables[name] ?? params[name])));
    const sofaRequest = new Request(new URL(API_PREFIX + sofaPath, url.origin), { method: route.method });
    const answer = await sofa.fetch(sofaRequest, { forgeline: { ...ctx, variables } } satisfies RestServerContext);
    if (answer.status >= 400) return movedOrError(answer, request);
    if (successStatus(route) === 204) return noContent();
    const data = await answer.json();
    if (route.text) return blobResponse(successStatus(route), data);
    return jsonResponse(successStatus(route), data, paginationHeaders(request, query, ctx.rest));
  }
}

/** The route SOFA knows each root field by: its first row in the table. */
const sofaRoutes = new Map<string, Route>();
for (const route of routes) if (!sofaRoutes.has(route.field)) sofaRoutes.set(route.field, route);

/**
 * The schema SOFA selects from: without the fields marked `extensions: { rest: false }`
 * (GraphQL-only fields, such as `award_emoji` on issues, that GitLab's REST entities lack).
 */
function restView(schema: GraphQLSchema): GraphQLSchema {
  return filterSchema({ schema, objectFieldFilter: (_type, _name, field) => field.extensions?.rest !== false });
}

function createSofaRouter(schema: GraphQLSchema, log: (error: unknown) => void) {
  return useSofa({
    schema: restView(schema),
    basePath: API_PREFIX,
    depthLimit: 2,
    routes: Object.fromEntries(
      [...sofaRoutes.values()].map((route) => [route.field, { method: route.method, path: route.path, responseStatus: successStatus(route) as any }]),
    ),
    context: ({ forgeline }: any) => forgeline,
    // Variables were decoded and checked by the adapter (GitLab's rules), not by SOFA.
    execute: ((args: ExecutionArgs) =>
      execute({ ...args, variableValues: (args.contextValue as RestServerContext["forgeline"]).variables })) as typeof execute,
    errorHandler: ((errors: readonly unknown[]) => {
      const appError = errors.map(appErrorOf).find(Boolean) ?? variableError(errors);
      if (appError instanceof ProjectMovedError) {
        return errorResponse(new AppError(appError.status, appError.body, { [MOVED_HEADER]: String(appError.projectId) }));
      }
      if (appError) return errorResponse(appError);
      log(errors);
      return errorResponse(internalError());
    }) as any, // fets' typed Response; ours is the platform Response
  });
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

/** A route's `files` must name exactly the Upload args of its root field. */
function checkFileParams(schema: GraphQLSchema, route: Route): void {
  const uploads = rootField(schema, route).args.filter((arg) => isUpload(arg.type)).map((arg) => arg.name);
  const declared = route.files ?? [];
  if (uploads.length !== declared.length || !declared.every((name) => uploads.includes(name))) {
    throw new Error(`route ${route.method} ${route.path}: files [${declared}] must be the Upload args [${uploads}] of ${route.field}`);
  }
}

/** A `text` route's root field must answer a RawBlob: its content is the body, its file name the disposition. */
function checkTextRoute(schema: GraphQLSchema, route: Route): void {
  const type = String(rootField(schema, route).type);
  if (!route.text || type === "RawBlob!") return;
  throw new Error(`route ${route.method} ${route.path}: the field of a text route must return RawBlob!, not ${type}`);
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

/** Marks a SOFA error answer as "project moved" for the adapter; never sent to clients. */
const MOVED_HEADER = "x-forgeline-moved-project";

function movedOrError(answer: Response, request: Request): Response {
  const moved = answer.headers.get(MOVED_HEADER);
  if (!moved) return answer;
  if (isRead(request)) return movedPermanently(request, Number(moved));
  answer.headers.delete(MOVED_HEADER);
  return answer;
}

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
