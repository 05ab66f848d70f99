// Responses of an operation: the route's success status (204 without a body, text routes as
// text/plain), pagination headers on list routes (render.ts paginationHeaders), and GitLab's
// error answers as reusable components (errors.ts: `{"message": ...}` or `{"error": ...}`).
import type { GraphQLField } from "graphql";
import type { Route } from "../route.js";
import type { JsonSchema } from "./schemas.js";

/** Error statuses any route may answer (bad params, auth, permissions, missing records, conflicts, limits). */
const ERRORS: Record<number, { name: string; description: string }> = {
  400: { name: "BadRequest", description: "Bad request: a param is missing or invalid (`{\"error\": ...}`), or the record is invalid (`{\"message\": {field: [errors]}}`)." },
  401: { name: "Unauthorized", description: "Unauthorized: no valid token where one is needed." },
  403: { name: "Forbidden", description: "Forbidden: the token's user may not do this." },
  404: { name: "NotFound", description: "Not found: no such record, or not visible to the token's user." },
  405: { name: "MethodNotAllowed", description: "Method not allowed (a write on a moved project's old path, or a page beyond the offset limit)." },
  409: { name: "Conflict", description: "Conflict with the current state of the record." },
  412: { name: "PreconditionFailed", description: "DELETE with If-Unmodified-Since: the record changed after that time." },
  413: { name: "PayloadTooLarge", description: "The request body is too large." },
  414: { name: "UriTooLong", description: "The query string is too long." },
  422: { name: "UnprocessableEntity", description: "The request is understood but cannot be carried out." },
  429: { name: "TooManyRequests", description: "Rate limited: try again later." },
};

export const errorComponents = (): { schemas: Record<string, JsonSchema>; responses: Record<string, JsonSchema> } => ({
  schemas: {
    MessageError: {
      type: "object",
      description: "GitLab's `{\"message\": ...}`: a text, or validation errors per field.",
      properties: { message: { anyOf: [{ type: "string" }, { type: "object" }, { type: "array" }] } },
      required: ["message"],
    },
    ParamError: {
      type: "object",
      description: "Grape's `{\"error\": ...}` (param errors, unknown routes), with OAuth's description for token errors.",
      properties: { error: { type: "string" }, error_description: { type: "string" } },
      required: ["error"],
    },
    Error: { anyOf: [{ $ref: "#/components/schemas/MessageError" }, { $ref: "#/components/schemas/ParamError" }] },
  },
  responses: Object.fromEntries(
    Object.values(ERRORS).map(({ name, description }) => [
      name,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  ),
});

export function paginationHeaderComponents(): Record<string, JsonSchema> {
  const integer = (description: string) => ({ description, schema: { type: "integer" } });
  const maybePage = (description: string) => ({ description, schema: { type: "string", pattern: "^[0-9]*$" } });
  return {
    "X-Total": integer("Total number of items (left out when counting them would be too costly)."),
    "X-Total-Pages": integer("Total number of pages (left out with X-Total)."),
    "X-Per-Page": integer("Number of items per page."),
    "X-Page": integer("Index of the current page (starting at 1)."),
    "X-Next-Page": maybePage("Index of the next page; empty on the last page."),
    "X-Prev-Page": maybePage("Index of the previous page; empty on the first page."),
    Link: { description: "RFC 8288 links to the prev, next, first and last pages.", schema: { type: "string" } },
  };
}

type Pagination = "offset" | "keyset" | undefined;

/**
 * Offset pagination where the field takes page/per_page (pagination.ts pageArgs): all the headers;
 * a field that also takes `pagination=keyset` (keysetArgs) answers only Link in that mode.
 */
export function paginationOf(field: GraphQLField<unknown, unknown>): Pagination {
  const names = new Set(field.args.map((arg) => arg.name));
  if (names.has("page") && names.has("per_page")) return "offset";
  return names.has("pagination") ? "keyset" : undefined;
}

const ref = (kind: "responses" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });

export function responses(route: Route, status: number, body: JsonSchema, pagination: Pagination): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = { [status]: success(route, status, body, pagination) };
  for (const other of route.otherAnswers ?? []) {
    out[other.status] = other.schema
      ? { description: other.description, content: { "application/json": { schema: other.schema } } }
      : { description: other.description };
  }
  if (route.method === "GET" && route.path.startsWith("/projects/:id")) {
    out["301"] = {
      description: "The project moved: the same route under its numeric id (Location).",
      headers: { Location: { schema: { type: "string", format: "uri" } } },
      content: { "text/plain": { schema: { type: "string" } } },
    };
  }
  for (const [code, { name }] of Object.entries(ERRORS)) {
    if (code !== "412" || route.method === "DELETE") out[code] = ref("responses", name); // destroy_conditionally!
  }
  return out;
}

function success(route: Route, status: number, body: JsonSchema, pagination: Pagination): JsonSchema {
  if (status === 204) return { description: "Done (no content)." };
  if (route.text) {
    return {
      description: "The file's content, named in Content-Disposition.",
      headers: { "Content-Disposition": { schema: { type: "string" } } },
      content: { "text/plain": { schema: { type: "string" } } },
    };
  }
  if (route.download) {
    return {
      description: "The file itself, its type in Content-Type, named in Content-Disposition.",
      headers: { "Content-Disposition": { schema: { type: "string" } } },
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    };
  }
  const headers = pagination === "offset"
    ? Object.fromEntries(Object.keys(paginationHeaderComponents()).map((name) => [name, ref("headers", name)]))
    : pagination === "keyset" ? { Link: ref("headers", "Link") } : undefined;
  return { description: status === 202 ? "Accepted." : "Success.", ...(headers ? { headers } : {}), content: { "application/json": { schema: body } } };
}
