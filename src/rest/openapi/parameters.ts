// Path and query parameters and request bodies of one route, from its root field's arguments, as
// the facade reads them (params.ts): GitLab's `name[]` arrays in the query string, hashes as
// `h[k]=`, bodies as JSON, form or multipart (the route's `files` as binary parts).
import { getNullableType, isInputObjectType, isListType, isNonNullType, type GraphQLArgument, type GraphQLField } from "graphql";
import { isUpload } from "../params.js";
import type { Route } from "../route.js";
import { inputSchema, withDescription, type JsonSchema } from "./schemas.js";

/** Params GitLab documents as deprecated, with what to use instead (lib/api/helpers/projects_helpers.rb). */
const DEPRECATED_PARAMS: Record<string, string> = {
  issues_enabled: "Deprecated: use issues_access_level.",
  merge_requests_enabled: "Deprecated: use merge_requests_access_level.",
  snippets_enabled: "Deprecated: use snippets_access_level.",
};
const DEPRECATED_PARAM_FIELDS = new Set(["Mutation.createProject", "Mutation.updateProject"]);

const PARAM_DESCRIPTIONS: Record<string, string> = {
  page: "Page number (default 1).",
  per_page: "Number of items per page (default 20, at most 100).",
};

/** `:id` segments (and a last `*path` glob) of a GitLab path, in order. */
export const pathParamNames = (path: string) => path.split("/").filter((s) => s.startsWith(":") || s.startsWith("*")).map((s) => s.slice(1));

/** GitLab notation to OpenAPI's: `/projects/:id` -> `/projects/{id}`, `/downloads/*path` -> `/downloads/{path}`. */
export const openApiPath = (path: string) => path.replace(/[:*](\w+)/g, "{$1}");

/** A `*path` glob: one or more segments, its slashes sent as they are. */
const isGlobParam = (route: Route, name: string) => route.path.split("/").includes(`*${name}`);

export function parameters(route: Route, field: GraphQLField<unknown, unknown>): JsonSchema[] {
  const inPath = pathParamNames(route.path);
  const args = new Map(field.args.map((arg) => [arg.name, arg]));
  const missing = inPath.filter((name) => !args.has(name));
  if (missing.length) throw new Error(`openapi: ${route.method} ${route.path}: path params [${missing}] are not args of ${route.field}`);
  const pathParams = inPath.map((name) => ({
    name, in: "path", required: true, ...described(args.get(name)!, route),
    schema: isGlobParam(route, name) ? globSchema(args.get(name)!) : pathSchema(args.get(name)!),
  }));
  if (hasBody(route)) return pathParams;
  return [...pathParams, ...field.args.filter((arg) => !inPath.includes(arg.name)).map((arg) => queryParam(arg, route))];
}

/** POST and PUT carry their params in the body (the query string works too, as in Grape). */
const hasBody = (route: Route) => route.method === "POST" || route.method === "PUT" || route.method === "PATCH";

/** A path segment is text: `id` takes a numeric id or a URL-encoded path (`group%2Fproject`). */
function pathSchema(arg: GraphQLArgument): JsonSchema {
  const schema = inputSchema(arg.type);
  return schema.type === "string" && arg.name === "id" ? { ...schema, description: "ID or URL-encoded path" } : schema;
}

/** A glob's schema says that its value is a path whose `/` are not encoded (OpenAPI has no multi-segment parameter). */
function globSchema(arg: GraphQLArgument): JsonSchema {
  return { ...inputSchema(arg.type), description: "A path of one or more segments: its slashes are sent unencoded (`bin/linux/tool`)", example: "bin/linux/tool" };
}

function queryParam(arg: GraphQLArgument, route: Route): JsonSchema {
  const schema = withDefault(inputSchema(arg.type), arg);
  const inner = getNullableType(arg.type);
  const common = { in: "query", required: isRequired(arg), ...described(arg, route), schema };
  if (isInputObjectType(inner) || (isListType(inner) && isInputObjectType(getNullableType(inner.ofType)))) {
    return { name: arg.name, ...common, style: "deepObject", explode: true };
  }
  if (isListType(inner)) return { name: `${arg.name}[]`, ...common, style: "form", explode: true };
  return { name: arg.name, ...common };
}

/** The body of a POST or PUT; undefined when the route takes nothing but its path. */
export function requestBody(route: Route, field: GraphQLField<unknown, unknown>): JsonSchema | undefined {
  if (!hasBody(route)) return undefined;
  const inPath = pathParamNames(route.path);
  const args = field.args.filter((arg) => !inPath.includes(arg.name));
  if (!args.length) return undefined;
  const plain = args.filter((arg) => !isUpload(arg.type));
  const content: Record<string, JsonSchema> = {
    "application/json": { schema: objectSchema(plain, route) },
    "application/x-www-form-urlencoded": { schema: objectSchema(plain, route), ...formEncoding(plain) },
    "multipart/form-data": { schema: objectSchema(args, route), ...formEncoding(plain) },
  };
  return { required: args.some(isRequired), content };
}

function objectSchema(args: readonly GraphQLArgument[], route: Route): JsonSchema {
  const required = args.filter(isRequired).map((arg) => arg.name);
  const properties = Object.fromEntries(
    args.map((arg) => {
      const { description, deprecated } = described(arg, route);
      const schema = withDescription(withDefault(inputSchema(arg.type), arg), description);
      return [arg.name, deprecated ? { ...schema, deprecated } : schema];
    }),
  );
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

/** Form bodies: lists of values comma-separated (Grape's CommaSeparatedToArray), hashes as `h[k]=v`. */
function formEncoding(args: readonly GraphQLArgument[]): JsonSchema {
  const encoding: Record<string, JsonSchema> = {};
  for (const arg of args) {
    const inner = getNullableType(arg.type);
    if (isInputObjectType(inner) || (isListType(inner) && isInputObjectType(getNullableType(inner.ofType)))) {
      encoding[arg.name] = { style: "deepObject", explode: true };
    } else if (isListType(inner)) {
      encoding[arg.name] = { style: "form", explode: false };
    }
  }
  return Object.keys(encoding).length ? { encoding } : {};
}

const isRequired = (arg: GraphQLArgument) => isNonNullType(arg.type) && arg.defaultValue === undefined;

function withDefault(schema: JsonSchema, arg: GraphQLArgument): JsonSchema {
  return arg.defaultValue === undefined || arg.defaultValue === null ? schema : { ...schema, default: arg.defaultValue };
}

function described(arg: GraphQLArgument, route: Route): { description?: string; deprecated?: true } {
  const deprecation = arg.deprecationReason ?? (DEPRECATED_PARAM_FIELDS.has(route.field) ? DEPRECATED_PARAMS[arg.name] : undefined);
  const description = [arg.description ?? PARAM_DESCRIPTIONS[arg.name], deprecation].filter(Boolean).join(" ");
  return { ...(description ? { description } : {}), ...(deprecation ? { deprecated: true as const } : {}) };
}
