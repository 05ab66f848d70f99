// Request parameters as GitLab (Grape) reads them: query string, JSON, form-encoded and multipart
// bodies merged into one object (`a[]=` arrays, `h[k]=` hashes, arrays of hashes, `+` as space),
// then checked and converted against the GraphQL arguments of the route's root field, with
// Grape's error texts ("x is missing", "x is invalid", "x does not have a valid value").
import qs from "qs";
import {
  getNullableType, isEnumType, isInputObjectType, isLeafType, isListType, isNonNullType, isScalarType,
  type GraphQLArgument, type GraphQLInputField, type GraphQLInputType,
} from "graphql";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Upload } from "graphql-upload-minimal";
import { AppError, malformedRequest, paramError } from "../errors.js";
import { NO_RECORD_ID, recordId } from "../domain/shared/record-ids.js";

/** A repeated plain key keeps its last value, as Rack does; `a[]=` keys build arrays. */
const QS_OPTIONS = { arrayLimit: 1000, parameterLimit: 10_000, depth: 5, allowDots: false, duplicates: "last" } as const;

export function parseQuery(search: string): Record<string, unknown> {
  const text = search.replace(/^\?/, "");
  return PLAIN_QUERY.test(text) ? parsePlainQuery(text) : (qs.parse(text, QS_OPTIONS) as Record<string, unknown>);
}

/** Nothing to decode and no `a[]`/`h[k]` keys: the usual `page=2&per_page=20`. */
const PLAIN_QUERY = /^[^%[\]]{0,2000}$/;

/** What qs.parse gives for a plain query, without its general machinery (hot path of every list). */
function parsePlainQuery(text: string): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const part of text.split("&")) {
    if (!part) continue;
    const equals = part.indexOf("=");
    const key = (equals < 0 ? part : part.slice(0, equals)).replaceAll("+", " ");
    if (!key || Object.prototype.hasOwnProperty.call(Object.prototype, key)) continue; // qs drops prototype keys
    params[key] = equals < 0 ? "" : part.slice(equals + 1).replaceAll("+", " ");
  }
  return params;
}

/** The body's params; a body over `maxBytes` is refused with 413 before it is parsed. */
export async function parseBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return {};
  const contentType = request.headers.get("content-type") ?? "";
  const bytes = await readBody(request, maxBytes);
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "multipart/form-data") return multipartFields(bytes, contentType);
  const text = new TextDecoder().decode(bytes);
  if (!text.trim()) return {};
  if (type === "application/x-www-form-urlencoded") return formEncodedFields(text);
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    throw paramError("The request body is not valid JSON");
  }
}

const bodyTooLarge = () => new AppError(413, { message: "413 Request Entity Too Large" });

async function readBody(request: Request, maxBytes: number): Promise<Buffer> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw bodyTooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw bodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A multipart body as Rack reads it: without a boundary or without bytes it carries no params; one
 * that does not parse (truncated, another boundary) is refused with 400, as GitLab's
 * HandleMalformedStrings middleware answers the ActionController::BadRequest Rails raises for it.
 */
async function multipartFields(bytes: Buffer, contentType: string): Promise<Record<string, unknown>> {
  if (bytes.length === 0 || !/;\s*boundary=/i.test(contentType)) return {};
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw malformedRequest();
  }
  return formFields(form);
}

/** A form-encoded body; a malformed %-escape (or one that is not UTF-8) is Rack's invalid %-encoding: 400. */
function formEncodedFields(text: string): Record<string, unknown> {
  try {
    decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    throw malformedRequest();
  }
  return parseQuery(text);
}

/** A null byte, or a lone UTF-16 surrogate (`"\\ud83d"` in JSON: no UTF-8 text can hold it). */
const MALFORMED_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A param (name or value) holding a null byte or text that is not UTF-8: GitLab's
 * HandleMalformedStrings middleware refuses the request with 400 before any route.
 */
export function assertWellFormedParams(params: Record<string, unknown>): void {
  const malformed = (value: unknown, depth: number): boolean => {
    if (typeof value === "string") return MALFORMED_TEXT.test(value);
    if (depth > 3 || !value || typeof value !== "object" || value instanceof Blob) return false;
    return Object.entries(value).some(([key, item]) => MALFORMED_TEXT.test(key) || malformed(item, depth + 1));
  };
  if (malformed(params, 0)) throw malformedRequest();
}

/** Multipart fields (files kept as File objects) expanded with the same bracket rules as a query. */
function formFields(form: FormData): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    const previous = flat[key];
    flat[key] = key.endsWith("[]") && previous !== undefined ? [...[previous].flat(), value] : value;
  }
  return qs.parse(flat as any, { ...QS_OPTIONS, decoder: (s: string) => s }) as Record<string, unknown>;
}

/**
 * GitLab clients' part names for a route's file: python sends the file under the param's own name
 * (and always adds an empty `file` part, ignored); gitbeaker's Topics and uploadAvatar methods send
 * it as `file`. A non-empty `file` part fills the route's first file param when that param has no
 * non-empty file of its own.
 */
export function withFileAlias(body: Record<string, unknown>, files: readonly string[] = []): Record<string, unknown> {
  const target = files[0];
  if (!target || !isNonEmptyFile(body.file) || isNonEmptyFile(body[target])) return body;
  const { file, ...rest } = body;
  return { ...rest, [target]: file };
}

const isNonEmptyFile = (value: unknown): value is File => value instanceof File && value.size > 0;

type Coerced = { value: unknown } | { error: "invalid" | "values" };

/**
 * Items a list param may hold: GitLab refuses larger arrays with 400 "Array parameter too large"
 * (JsonValidation middleware, 50,000 there); here the lists become one `IN (...)` of a query, and
 * the databases bound a query's parameters (SQLite 999 through Prisma's adapter).
 */
const MAX_LIST_ITEMS = 500;

const INT_MAX = 2_147_483_647;
const INT_MIN = -2_147_483_648;

/**
 * Checks and converts raw REST params into GraphQL variable values for the field's arguments.
 * Unknown params are ignored, as Grape ignores undeclared params. `pathParams` name the route's
 * `:params`: record lookups, where an integer past the id columns' range is a record that cannot exist.
 */
export function coerceArgs(args: readonly GraphQLArgument[], raw: Record<string, unknown>, pathParams: readonly string[] = []): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const arg of args) {
    const input = pathParams.includes(arg.name) ? pathValue(arg.type, raw[arg.name]) : raw[arg.name];
    if (input === null && isUpload(arg.type)) {
      values[arg.name] = null; // `"avatar": null` removes the file
      continue;
    }
    if (input === undefined || input === null) {
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) problems.push(`${arg.name} is missing`);
      continue;
    }
    const inner = getNullableType(arg.type);
    if (isInputObjectType(inner) && input && typeof input === "object" && !Array.isArray(input) && !(input instanceof Blob)) {
      const nested = coerceHash(arg.name, Object.values(inner.getFields()), input as Record<string, unknown>);
      if ("problems" in nested) problems.push(...nested.problems);
      else values[arg.name] = nested.value;
      continue;
    }
    const result = coerceValue(arg.type, input);
    if ("error" in result) problems.push(`${arg.name} ${problemText(result.error)}`);
    else values[arg.name] = result.value;
  }
  if (problems.length) throw paramError(problems.join(", "));
  return values;
}

const problemText = (error: "invalid" | "values") => (error === "values" ? "does not have a valid value" : "is invalid");

/**
 * A Hash param (`optional :position, type: Hash do ... end`): each of its keys checked as Grape
 * checks them, its problems named `hash[key]` ("position[base_sha] is missing").
 */
function coerceHash(name: string, fields: readonly GraphQLInputField[], input: Record<string, unknown>): { value: Record<string, unknown> } | { problems: string[] } {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const field of fields) {
    const value = input[field.name];
    if (value === undefined || value === null) {
      if (isNonNullType(field.type)) problems.push(`${name}[${field.name}] is missing`);
      continue;
    }
    const result = coerceValue(field.type, value);
    if ("error" in result) problems.push(`${name}[${field.name}] ${problemText(result.error)}`);
    else out[field.name] = result.value;
  }
  return problems.length ? { problems } : { value: out };
}

/**
 * An Int path param past 32 bits names no record: GitLab finds nothing and answers the route's own
 * 404, so it is looked up as an id no record has rather than refused as an invalid Int.
 */
function pathValue(type: GraphQLInputType, input: unknown): unknown {
  const inner = getNullableType(type);
  if (!isScalarType(inner) || inner.name !== "Int" || typeof input !== "string" || !/^\d+$/.test(input)) return input;
  return recordId(input) === NO_RECORD_ID ? String(NO_RECORD_ID) : input;
}

export const isUpload = (type: GraphQLInputType) => {
  const inner = getNullableType(type);
  return isScalarType(inner) && inner.name === "Upload";
};

function coerceValue(type: GraphQLInputType, input: unknown): Coerced {
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) return coerceList(inner.ofType, input);
  if (isInputObjectType(inner)) return coerceObject(Object.values(inner.getFields()), input);
  if (isEnumType(inner)) {
    return typeof input === "string" && inner.getValue(input) ? { value: input } : { error: "values" };
  }
  if (isScalarType(inner)) return coerceScalar(inner.name, inner, input);
  return { error: "invalid" };
}

function coerceList(itemType: GraphQLInputType, input: unknown): Coerced {
  let items: unknown[];
  if (Array.isArray(input)) items = input;
  else if (input && typeof input === "object" && !(input instanceof Blob)) items = Object.values(input); // h[0][k]=v
  else if (typeof input === "string" && isLeafType(getNullableType(itemType))) items = input.split(",").map((s) => s.trim()).filter(Boolean); // CommaSeparatedToArray
  else items = [input];
  if (items.length > MAX_LIST_ITEMS) throw paramError("Array parameter too large");
  const out: unknown[] = [];
  for (const item of items) {
    const result = coerceValue(itemType, item);
    if ("error" in result) return result;
    out.push(result.value);
  }
  return { value: out };
}

function coerceObject(fields: readonly GraphQLInputField[], input: unknown): Coerced {
  if (!input || typeof input !== "object" || Array.isArray(input)) return { error: "invalid" };
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (input as Record<string, unknown>)[field.name];
    if (value === undefined || value === null) {
      if (isNonNullType(field.type)) return { error: "invalid" };
      continue;
    }
    const result = coerceValue(field.type, value);
    if ("error" in result) return result;
    out[field.name] = result.value;
  }
  return { value: out };
}

/** A multipart file part becomes an Upload; an empty part or value means "remove" (null). */
function uploadOf(input: unknown): Coerced {
  if (input === "" || (input instanceof File && input.size === 0)) return { value: null };
  if (!(input instanceof File)) return { error: "invalid" };
  const upload = new Upload() as Upload & { resolve(file: unknown): void };
  upload.resolve({
    filename: input.name,
    fieldName: "",
    mimetype: input.type || "application/octet-stream",
    encoding: "7bit",
    createReadStream: () => Readable.fromWeb(input.stream() as unknown as NodeReadableStream),
  });
  return { value: upload };
}

function coerceScalar(name: string, scalar: { parseValue: (v: unknown) => unknown }, input: unknown): Coerced {
  switch (name) {
    case "Int": {
      // GraphQL's Int is 32-bit: a larger integer is Grape's "is invalid" (never a database error)
      const text = typeof input === "number" ? String(input) : input;
      const value = typeof text === "string" && /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
      return Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX ? { value } : { error: "invalid" };
    }
    case "Float":
      return (typeof input === "number" || (typeof input === "string" && input.trim() !== "")) && Number.isFinite(Number(input))
        ? { value: Number(input) }
        : { error: "invalid" };
    case "Boolean":
      // true/false only; "True"/"False" is how python-gitlab writes Python booleans in a query
      if (input === true || input === "true" || input === "True") return { value: true };
      if (input === false || input === "false" || input === "False") return { value: false };
      return { error: "invalid" };
    case "Upload":
      return uploadOf(input);
    case "String":
    case "ID":
      return typeof input === "string" || typeof input === "number" ? { value: String(input) } : { error: "invalid" };
    default:
      try {
        scalar.parseValue(input);
        return { value: input };
      } catch {
        return { error: "invalid" };
      }
  }
}
