// The OpenAPI 3.1 document of /api/v4, generated once at start from the route table, the root
// fields' arguments and the entities as the facade renders them (each route's operation,
// operations.ts). operationId is the root field's name: tests and tools find routes by it.
import { Kind, type GraphQLSchema } from "graphql";
import { rootField } from "../adapter.js";
import { buildRouteOperations } from "../operations.js";
import { routes as routeTable, routeVariantsOf, successStatus, type Route } from "../routes.js";
import { openApiPath, parameters, requestBody } from "./parameters.js";
import { errorComponents, paginationHeaderComponents, paginationOf, responses } from "./responses.js";
import { EntitySchemas, type JsonSchema } from "./schemas.js";

/** Routes GitLab documents as deprecated (doc/api/merge_requests.md). */
const DEPRECATED_ROUTES: Record<string, string> = {
  "GET /projects/:id/merge_requests/:merge_request_iid/changes":
    "Deprecated in GitLab 15.7 and to be removed in API v5: use GET /projects/{id}/merge_requests/{merge_request_iid}/diffs.",
};

export function buildOpenApiDocument(schema: GraphQLSchema, routes: readonly Route[] = routeTable): JsonSchema {
  const variants = routeVariantsOf(schema, routes);
  const operations = buildRouteOperations(schema, [...routes, ...[...variants.values()].flat().map((v) => v.route)]);
  const entities = new EntitySchemas();
  const bodyOf = (route: Route): JsonSchema => {
    const field = rootField(schema, route);
    const selection = operations.get(route.field)!.document.definitions[0]!;
    const rootSelection = selection.kind === Kind.OPERATION_DEFINITION ? selection.selectionSet.selections[0] : undefined;
    return entities.output(field.type, rootSelection?.kind === Kind.FIELD ? rootSelection.selectionSet : undefined);
  };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const field = rootField(schema, route);
    const routeVariants = variants.get(route.field);
    // a route with variants answers any of their entities (an empty list is each of them)
    const body = route.text || route.download ? {} : routeVariants ? { anyOf: routeVariants.map((v) => bodyOf(v.route)) } : bodyOf(route);
    const deprecation = DEPRECATED_ROUTES[`${route.method} ${route.path}`];
    const requestBodyOf = requestBody(route, field);
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = {
      operationId: operationIdOf(route, routes),
      tags: [tagOf(route.path)],
      ...(field.description || deprecation ? { description: [field.description, deprecation].filter(Boolean).join("\n\n") } : {}),
      ...(deprecation ? { deprecated: true } : {}),
      "x-graphql-field": route.field,
      parameters: parameters(route, field),
      ...(requestBodyOf ? { requestBody: requestBodyOf } : {}),
      responses: responses(route, successStatus(route), body, paginationOf(field)),
    };
  }
  const errors = errorComponents();
  return {
    openapi: "3.1.0",
    info: {
      title: "Forgeline REST API (GitLab API v4)",
      version: "4",
      description: "GitLab's REST API v4 as Forgeline answers it. Authenticate with a personal access token (PRIVATE-TOKEN header, `private_token` query param or Bearer); administrators may act as another user with Sudo.",
    },
    servers: [{ url: "/api/v4" }],
    security: [{}, { privateToken: [] }, { privateTokenQuery: [] }, { bearer: [] }, { privateToken: [], sudo: [] }, { bearer: [], sudo: [] }],
    tags: [...new Set(routes.map((route) => tagOf(route.path)))].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...entities.components, ...errors.schemas },
      responses: errors.responses,
      headers: paginationHeaderComponents(),
      securitySchemes: {
        privateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN", description: "A personal, project or group access token." },
        privateTokenQuery: { type: "apiKey", in: "query", name: "private_token" },
        bearer: { type: "http", scheme: "bearer", description: "An access token as `Authorization: Bearer <token>`." },
        sudo: { type: "apiKey", in: "header", name: "Sudo", description: "Administrators: act as this user (username or id); the token needs the sudo scope." },
      },
    },
  };
}

/**
 * The root field's name; a field that answers several rows (`metadata` for /metadata and /version)
 * keeps its plain name on the row named after it, the others add their last segment.
 */
function operationIdOf(route: Route, routes: readonly Route[]): string {
  const name = route.field.split(".")[1]!;
  const sharing = routes.filter((other) => other.field === route.field);
  if (sharing.length === 1) return name;
  const plain = sharing.find((other) => lastStatic(other.path) === name) ?? sharing[0]!;
  return plain === route ? name : `${name}_${lastStatic(route.path)}`;
}

const lastStatic = (path: string) => path.split("/").filter((s) => s && !s.startsWith(":") && !s.startsWith("*")).at(-1)!;

/** Sub-resources with their own GitLab API page wherever they are nested, the first found winning (a note's award emoji). */
const NESTED_TAGS: Record<string, string> = {
  award_emoji: "award_emoji", discussions: "discussions", notes: "notes",
  approvals: "approvals", approval_rules: "approvals", approval_state: "approvals",
  approve: "approvals", unapprove: "approvals", reset_approvals: "approvals",
};
/** Paths GitLab documents together with another resource. */
const TAG_ALIASES: Record<string, string> = { user: "users", version: "metadata", merge_base: "repository" };
const OWNERS = new Set(["projects", "groups"]);
/** Segments after an owner that act on the owner itself rather than name a resource. */
const OWNER_ACTIONS = new Set(["transfer", "subgroups", "descendant_groups"]);

/** The resource a path is about: a nested sub-resource, else the first segment after its owner. */
export function tagOf(path: string): string {
  const segments = path.split("/").filter(Boolean);
  const nested = Object.keys(NESTED_TAGS).find((segment) => segments.includes(segment));
  if (nested) return NESTED_TAGS[nested]!;
  const statics = segments.filter((segment) => !segment.startsWith(":") && !segment.startsWith("*") && segment !== "repository");
  const afterOwner = OWNERS.has(segments[0]!) && segments[1]?.startsWith(":") ? statics[1] : undefined;
  const tag = afterOwner && !OWNER_ACTIONS.has(afterOwner) ? afterOwner : statics[0]!;
  return TAG_ALIASES[tag] ?? tag;
}
