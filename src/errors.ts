// GitLab's error answers in one place: every failure is an AppError carrying the HTTP status and
// the exact JSON body GitLab sends. REST renders it as is; GraphQL exposes it in extensions.
import { GraphQLError } from "graphql";

/** `{"message": ...}` from GitLab's helpers; `{"error": "..."}` (plus OAuth fields) from Grape and the token guard. */
export type ErrorBody = { message: unknown } | { error: string; [field: string]: unknown };

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof (body as any).message === "string" ? (body as any).message : JSON.stringify(body));
  }
}

/** `not_found!("Project")` → 404 {"message":"404 Project Not Found"} */
export const notFound = (resource?: string) =>
  new AppError(404, { message: resource ? `404 ${resource} Not Found` : "404 Not Found" });

/** A record lookup by id that found nothing (ActiveRecord::RecordNotFound): lower-case "found". */
export const recordNotFound = () => new AppError(404, { message: "404 Not found" });

export const unauthorized = (reason?: string) =>
  new AppError(401, { message: reason ? `401 Unauthorized - ${reason}` : "401 Unauthorized" });

export const forbidden = (reason?: string) =>
  new AppError(403, { message: reason ? `403 Forbidden - ${reason}` : "403 Forbidden" });

/** `bad_request!(reason)`; without a reason just "400 Bad request". */
export const badRequest = (reason?: string) =>
  new AppError(400, { message: reason ? `400 Bad request - ${reason}` : "400 Bad request" });

/**
 * A request whose params cannot be read (broken multipart, bad %-escapes, null bytes): GitLab's
 * HandleMalformedStrings middleware answers 400 "Bad Request" before any route; here in the
 * `{"error": ...}` form of GitLab's other body checks (JsonValidation middleware).
 */
export const malformedRequest = () => new AppError(400, { error: "Bad Request" });

/** Grape parameter errors: 400 {"error":"name is missing"}. */
export const paramError = (text: string) => new AppError(400, { error: text });

/** Model validation errors: 400 {"message":{"name":["has already been taken"]}}. */
export const validationError = (fields: Record<string, string[]>, status = 400) =>
  new AppError(status, { message: fields });

export const conflict = (message: string) => new AppError(409, { message });

/** `not_modified!`: 304, sent without a body (a subscription already in the state asked for). */
export const notModified = () => new AppError(304, { message: "304 Not Modified" });

export const methodNotAllowed = (message = "405 Method Not Allowed") => new AppError(405, { message });

export const routeNotFound = () => new AppError(404, { error: "404 Not Found" });

export const internalError = () => new AppError(500, { message: "500 Internal Server Error" });

/** The AppError inside a GraphQL error (resolvers rethrow domain errors unchanged). */
export function appErrorOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof GraphQLError) return appErrorOf(error.originalError);
  return undefined;
}

/** Shape of a domain error for GraphQL clients: message text plus the REST status and body. */
export function graphqlErrorExtensions(error: AppError) {
  return { code: codeFor(error.status), http: { status: error.status }, gitlab: error.body };
}

function codeFor(status: number): string {
  if (status === 401) return "UNAUTHENTICATED";
  if (status === 403) return "FORBIDDEN";
  if (status === 404) return "NOT_FOUND";
  if (status === 409) return "CONFLICT";
  if (status >= 400 && status < 500) return "BAD_USER_INPUT";
  return "INTERNAL_SERVER_ERROR";
}
