// Route rows of the /api/v4 route table (routes.ts): each maps a GitLab method + path to one root
// field of the GraphQL schema. Success status defaults by verb (GET/PUT 200, POST 201, DELETE 204).
// `files` names the route's file params (Upload args), in order: see the adapter's `file` part.
// `text` routes answer a file's content instead of JSON: their root field returns a RawBlob;
// `download` routes answer the file their root field leaves in `ctx.rest.download`.
export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface Route {
  method: Method;
  path: string;
  field: `Query.${string}` | `Mutation.${string}`;
  status?: number;
  /** params that take a multipart file part (Upload args) */
  files?: readonly string[];
  /** the root field's RawBlob is sent as the body (text/plain), named in Content-Disposition */
  text?: boolean;
  /** the file the root field puts in `ctx.rest.download` is sent as the body (any type, streamed) */
  download?: boolean;
  /**
   * answers besides the root field's entity, which its resolver leaves in `ctx.rest.answer` (a
   * dry run's 200 {"dry_run":"success"}), for the API description
   */
  otherAnswers?: readonly OtherAnswer[];
}

export interface OtherAnswer {
  status: number;
  description: string;
  /** JSON Schema of the body */
  schema: Record<string, unknown>;
}

type RouteOptions = Pick<Route, "status" | "files" | "otherAnswers">;

export const get = (path: string, field: string, options: Pick<Route, "text" | "download"> = {}): Route => ({ method: "GET", path, field: `Query.${field}`, ...options });
export const post = (path: string, field: string, options: RouteOptions = {}): Route => ({ method: "POST", path, field: `Mutation.${field}`, ...options });
export const put = (path: string, field: string, options: RouteOptions = {}): Route => ({ method: "PUT", path, field: `Mutation.${field}`, ...options });
export const del = (path: string, field: string): Route => ({ method: "DELETE", path, field: `Mutation.${field}` });

