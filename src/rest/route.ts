// How a root field of the REST schema declares its /api/v4 route: in its options,
// `extensions: { rest: route.get("/projects/:id/issues") }` (a list where one field answers
// several paths). The route table (routes.ts) is read off the schema, so the table, the OpenAPI
// document and the schema cannot disagree. GET routes belong on Query fields, the others on
// Mutation fields. Success status defaults by verb (GET/PUT/PATCH 200, POST 201, DELETE 204).
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteDeclaration {
  method: Method;
  path: string;
  status?: number;
  /** the file the root field puts in `ctx.rest.download` is sent as the body (any type, streamed) */
  download?: boolean;
  /**
   * answers besides the root field's entity, which its resolver leaves in `ctx.rest.answer` (a
   * dry run's 200 {"dry_run":"success"}), for the API description
   */
  otherAnswers?: readonly OtherAnswer[];
}

/** A row of the route table: the declaration, its root field, and what the field's type implies. */
export interface Route extends RouteDeclaration {
  field: `Query.${string}` | `Mutation.${string}`;
  /** the root field's Upload args, in order: params that take a multipart file part */
  files?: readonly string[];
  /** the root field answers a RawBlob, sent as the body (text/plain), named in Content-Disposition */
  text?: boolean;
}

/**
 * A root field that answers one route for one value of a param (GET /search?scope=issues), declared
 * as `extensions: { restVariant: route.variant("search", "scope", "issues") }` instead of a route:
 * the adapter runs it when the route's param has that value, and the route's own root field
 * (which checks the param) otherwise. The API description shows the route once, answering any of
 * its variants' entities.
 */
export interface VariantDeclaration {
  /** the root field that declares the route */
  of: string;
  param: string;
  value: string;
}

export const variant = (of: string, param: string, value: string): VariantDeclaration => ({ of, param, value });

export interface OtherAnswer {
  status: number;
  description: string;
  /** JSON Schema of the body; none for an answer without one (304) */
  schema?: Record<string, unknown>;
}

type WriteOptions = Pick<RouteDeclaration, "status" | "otherAnswers">;

export const get = (path: string, options: Pick<RouteDeclaration, "download"> = {}): RouteDeclaration => ({ method: "GET", path, ...options });
export const post = (path: string, options: WriteOptions = {}): RouteDeclaration => ({ method: "POST", path, ...options });
export const put = (path: string, options: WriteOptions = {}): RouteDeclaration => ({ method: "PUT", path, ...options });
export const patch = (path: string, options: WriteOptions = {}): RouteDeclaration => ({ method: "PATCH", path, ...options });
export const del = (path: string, options: Pick<RouteDeclaration, "status"> = {}): RouteDeclaration => ({ method: "DELETE", path, ...options });
