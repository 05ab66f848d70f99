// Requests generated from an OpenAPI document: for each operation, valid requests and hostile ones
// (wrong types, missing required params, huge and negative numbers, unicode, empty strings,
// oversize arrays, wrong content types, malformed JSON and multipart bodies), from a seeded
// random source so that a run can be replayed (`--seed`). No server code imported: the document is the input.
import qs from "qs";

export type JsonSchema = Record<string, any>;
export type OpenApiDocument = { paths: Record<string, Record<string, any>>; components?: Record<string, any> };

export interface Operation {
  operationId: string;
  method: string;
  /** OpenAPI path, `{id}` placeholders */
  path: string;
  parameters: { name: string; in: "path" | "query" | "header"; required: boolean; schema: JsonSchema }[];
  /** media type -> body schema */
  bodies: Record<string, JsonSchema>;
  bodyRequired: boolean;
  /** documented statuses ("200", "4XX", "default") */
  statuses: string[];
}

export interface Actor {
  name: string;
  token?: string;
}

export interface GeneratedRequest {
  operationId: string;
  /** what the request tries: "valid", "invalid query per_page: huge", "malformed multipart" ... */
  kind: string;
  actor: string;
  method: string;
  /** path and query, e.g. /api/v4/projects/1/issues?page=2 */
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}

/** mulberry32: small, fast, good enough to pick test inputs, and the same for a seed everywhere. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]!, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof seededRandom>;

const METHODS = ["get", "post", "put", "delete", "patch"];

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(document, p));
      const content = op.requestBody ? resolve(document, op.requestBody).content ?? {} : {};
      const bodies = Object.fromEntries(Object.entries(content).map(([type, media]: [string, any]) => [type, media.schema ?? {}]));
      operations.push({
        operationId: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: parameters.map((p) => ({ name: p.name, in: p.in, required: !!p.required, schema: p.schema ?? {} })),
        bodies,
        bodyRequired: !!op.requestBody?.required,
        statuses: Object.keys(op.responses ?? {}),
      });
    }
  }
  return operations;
}

/** A `$ref` inside the document followed to what it names. */
export function resolve(document: OpenApiDocument, value: any): any {
  let current = value;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 20; hops++) {
    current = current.$ref
      .replace(/^#\//, "")
      .split("/")
      .map((part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((node: any, key: string) => node?.[key], document);
  }
  return current;
}

/** Whether the document lists `status` for the operation (exactly, as `4XX`, or as `default`). */
export function documents(operation: Operation, status: number): boolean {
  const text = String(status);
  return operation.statuses.some((s) => s === text || s.toUpperCase() === `${text[0]}XX` || s === "default");
}

/**
 * Values of the fixtures for path params, the most specific key first: `<parent>/<collection>:<param>`
 * (`merge_requests/notes:note_id`), `<first segment>:<param>` (`groups:id`), then the param's name.
 */
export type PathValues = Record<string, string[]>;

export function pathValueKeys(path: string, name: string): string[] {
  const segments = path.split("/").filter(Boolean);
  const at = segments.indexOf(`{${name}}`);
  const keys = [`${segments[0]}:${name}`, name];
  if (at >= 3) keys.unshift(`${segments[at - 3]}/${segments[at - 1]}:${name}`);
  return keys;
}

/** Hostile values and what they are called in a failure report. */
const HOSTILE: [string, (r: Random, schema: JsonSchema) => unknown][] = [
  ["huge", (r) => r.pick(["99999999999999999999", "2147483648", "9223372036854775808", "1e400"])],
  ["negative", (r) => r.pick([-1, -2147483649, "-0", "-99999999999999999999"])],
  ["unicode", (r) => r.pick(["ünïcødé ✓", "🚀🔥", "\u202egnp.exe", "日本語のテキスト", "a\u0301\u0301", "\ud83d"])],
  ["empty", () => ""],
  ["wrong type", (r, schema) => wrongType(r, schema)],
  ["oversize array", (r) => Array.from({ length: 1500 + r.int(1000) }, (_, i) => String(i))],
  ["long string", (r) => "x".repeat(5000 + r.int(5000))],
  ["object", () => ({ nested: { deeper: ["a"] } })],
  ["null byte", () => "a\u0000b"],
];

function wrongType(r: Random, schema: JsonSchema): unknown {
  const type = typeOf(schema);
  if (type === "integer" || type === "number") return r.pick(["abc", "1.5", "0x10", "1,2", true]);
  if (type === "boolean") return r.pick(["maybe", "2", "yes please"]);
  if (type === "array") return r.pick(["not-an-array", 7]);
  if (type === "object") return r.pick(["str", 3]);
  return r.pick([12345, true, ["a", "b"]]);
}

const typeOf = (schema: JsonSchema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;

export class RequestGenerator {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly random: Random,
    private readonly pathValues: PathValues,
    private readonly actors: Actor[],
    private readonly prefix = "/api/v4",
  ) {}

  /** One request for the operation: valid about a third of the time, otherwise one hostile change. */
  generate(operation: Operation): GeneratedRequest {
    const r = this.random;
    const actor = r.pick(this.actors);
    const path = this.pathParams(operation);
    const query = this.params(operation.parameters.filter((p) => p.in === "query"));
    const bodyType = this.pickBodyType(operation);
    const bodySchema = bodyType ? resolve(this.document, operation.bodies[bodyType]) : undefined;
    const body = bodySchema ? this.objectValue(bodySchema) : undefined;
    let kind = "valid";
    let raw: { type?: string; bytes?: Uint8Array<ArrayBuffer> } | undefined;
    const roll = r.next();
    if (roll < 0.35) {
      // valid
    } else if (roll < 0.55) {
      kind = this.mutateParam(operation, path, query, body, bodySchema);
    } else if (roll < 0.65) {
      kind = this.dropRequired(operation, query, body, bodySchema);
    } else if (roll < 0.72 || operation.method === "GET") {
      // GET bodies are not sent (fetch refuses them; GitLab's clients never send one): a path param instead
      const names = Object.keys(path);
      if (names.length) {
        const name = r.pick(names);
        const [label, make] = r.pick(HOSTILE.filter(([l]) => ["huge", "negative", "unicode", "wrong type", "long string"].includes(l)));
        path[name] = String(make(r, { type: "string" }));
        kind = `path ${name}: ${label}`;
      }
    } else if (roll < 0.8) {
      kind = "malformed JSON";
      raw = { type: "application/json", bytes: utf8(r.pick(['{"title": "half', "{bad json}", "[1,2", '{"a":1}}', "\u0000", "nul"])) };
    } else if (roll < 0.9) {
      kind = "malformed multipart";
      raw = malformedMultipart(r);
    } else {
      kind = "wrong content type";
      raw = { type: r.pick(["text/plain", "application/xml", "application/octet-stream", "image/png", "application/json; charset=utf-16"]), bytes: utf8(r.pick(["<a>1</a>", "title=x", "\u00ff\u00fe", "plain words"])) };
    }
    const url = `${this.prefix}${fillPath(operation.path, path)}${queryString(query)}`;
    const headers: Record<string, string> = {};
    if (actor.token) headers["PRIVATE-TOKEN"] = actor.token;
    let bytes: Uint8Array<ArrayBuffer> | undefined;
    if (raw) {
      if (raw.type) headers["Content-Type"] = raw.type;
      bytes = raw.bytes;
    } else if (bodyType && body !== undefined) {
      const encoded = encodeBody(bodyType, body as Record<string, unknown>, r);
      headers["Content-Type"] = encoded.type;
      bytes = encoded.bytes;
    }
    return { operationId: operation.operationId, kind, actor: actor.name, method: operation.method, url, headers, body: bytes };
  }

  private pathParams(operation: Operation): Record<string, string> {
    const values: Record<string, string> = {};
    for (const param of operation.parameters.filter((p) => p.in === "path")) {
      const known = pathValueKeys(operation.path, param.name).map((key) => this.pathValues[key]).find((v) => v?.length);
      values[param.name] = known ? this.random.pick(known) : String(this.validValue(param.schema, param.name));
    }
    return values;
  }

  private params(params: Operation["parameters"]): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const param of params) {
      if (param.required || this.random.chance(0.3)) values[param.name] = this.validValue(param.schema, param.name);
    }
    return values;
  }

  private pickBodyType(operation: Operation): string | undefined {
    const types = Object.keys(operation.bodies);
    if (!types.length) return undefined;
    return this.random.pick(types);
  }

  /** A body object: required properties always, optional ones sometimes. */
  private objectValue(schema: JsonSchema, depth = 0): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required: string[] = schema.required ?? [];
    for (const [name, property] of Object.entries<JsonSchema>(schema.properties ?? {})) {
      if (required.includes(name) || this.random.chance(0.35)) out[name] = this.validValue(property, name, depth + 1);
    }
    return out;
  }

  /** A plausible value for a schema (ids from the fixtures, enums, small integers, short strings). */
  validValue(input: JsonSchema, name = "", depth = 0): unknown {
    const r = this.random;
    const schema = resolve(this.document, input) ?? {};
    if (schema.enum?.length) return r.pick(schema.enum);
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants?.length) return this.validValue(r.pick(variants.filter((v: JsonSchema) => v.type !== "null")) ?? {}, name, depth);
    switch (typeOf(schema)) {
      case "integer":
      case "number": {
        const known = this.pathValues[name];
        return known?.length && /^\d+$/.test(known[0]!) ? Number(r.pick(known)) : r.pick([1, 2, 3, 10, 20, 30, 40, 50, 100]);
      }
      case "boolean":
        return r.chance(0.5);
      case "array":
        return depth > 3 ? [] : Array.from({ length: r.int(3) }, () => this.validValue(schema.items ?? {}, name, depth + 1));
      case "object":
        return depth > 3 ? {} : this.objectValue(schema, depth);
      default:
        if (schema.format === "binary") return PNG;
        if (schema.format === "date-time") return "2030-01-02T03:04:05Z";
        if (schema.format === "date" || /date$/.test(name)) return "2030-01-02";
        if (/url$/.test(name)) return "https://example.com/hook";
        if (/email/.test(name)) return `fuzz${r.int(1e9)}@example.com`;
        return `fuzz-${r.int(1e6)}`;
    }
  }

  private mutateParam(operation: Operation, path: Record<string, string>, query: Record<string, unknown>, body: unknown, bodySchema?: JsonSchema): string {
    const r = this.random;
    const candidates: [string, JsonSchema, Record<string, unknown>][] = [
      ...operation.parameters.filter((p) => p.in === "query").map((p) => [p.name, p.schema, query] as [string, JsonSchema, Record<string, unknown>]),
      ...Object.entries<JsonSchema>(bodySchema?.properties ?? {}).map(([name, s]) => [name, s, body as Record<string, unknown>] as [string, JsonSchema, Record<string, unknown>]),
      ...["page", "per_page"].map((name) => [name, { type: "integer" }, query] as [string, JsonSchema, Record<string, unknown>]),
    ];
    if (!candidates.length) return "valid";
    const [name, schema, target] = r.pick(candidates);
    const [label, make] = r.pick(HOSTILE);
    target[name] = make(r, resolve(this.document, schema) ?? {});
    return `${target === query ? "query" : "body"} ${name}: ${label}`;
  }

  private dropRequired(operation: Operation, query: Record<string, unknown>, body: unknown, bodySchema?: JsonSchema): string {
    const required = [
      ...operation.parameters.filter((p) => p.in === "query" && p.required).map((p) => [p.name, query] as const),
      ...((bodySchema?.required ?? []) as string[]).map((name) => [name, body as Record<string, unknown>] as const),
    ];
    if (!required.length) return "valid";
    const [name, target] = this.random.pick(required);
    delete target[name];
    return `missing ${name}`;
  }
}

/** 1x1 PNG, for file parts. */
const PNG = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

/** Lone surrogates (a hostile unicode value) as U+FFFD, as a UTF-8 encoder writes them. */
const wellFormed = (text: string) => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(wellFormed(values[name] ?? "")));
}

/** `a[]=1&a[]=2` for the document's `a[]` params (named with their brackets), `h[k]=v` for hashes. */
function queryString(query: Record<string, unknown>): string {
  const text = Object.entries(plain(query))
    .map(([key, value]) => qs.stringify({ [key]: value }, { arrayFormat: key.endsWith("[]") ? "repeat" : "brackets" }))
    .filter(Boolean)
    .join("&");
  return text ? `?${text}` : "";
}

/** Values as a query or form carries them (files dropped). */
function plain(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => !(v instanceof Uint8Array)));
}

function encodeBody(type: string, body: Record<string, unknown>, r: Random): { type: string; bytes: Uint8Array<ArrayBuffer> } {
  if (type === "application/x-www-form-urlencoded") return { type, bytes: utf8(qs.stringify(plain(body), { arrayFormat: "brackets" })) };
  if (type === "multipart/form-data") return multipart(body, r);
  return { type: "application/json", bytes: utf8(JSON.stringify(body)) };
}

/** A well-formed multipart body: `name[]` parts for arrays, `h[k]` for hashes, file parts for bytes. */
function multipart(body: Record<string, unknown>, r: Random): { type: string; bytes: Uint8Array<ArrayBuffer> } {
  const boundary = `fuzz${r.int(1e9)}`;
  const parts: Buffer[] = [];
  const add = (name: string, value: unknown) => {
    if (value instanceof Uint8Array) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), Buffer.from(value), Buffer.from("\r\n"));
    } else if (Array.isArray(value)) {
      for (const item of value) add(`${name}[]`, item);
    } else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    } else {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`));
    }
  };
  for (const [name, value] of Object.entries(body)) add(name, value);
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, bytes: new Uint8Array(Buffer.concat(parts)) };
}

function malformedMultipart(r: Random): { type: string; bytes: Uint8Array<ArrayBuffer> } {
  const part = 'Content-Disposition: form-data; name="title"\r\n\r\nx';
  return r.pick([
    { type: "multipart/form-data; boundary=XX", bytes: utf8("garbage without any boundary") },
    { type: "multipart/form-data; boundary=XX", bytes: utf8(`--YY\r\n${part}\r\n--YY--\r\n`) },
    { type: "multipart/form-data; boundary=XX", bytes: utf8(`--XX\r\n${part}`) },
    { type: "multipart/form-data", bytes: utf8(`--XX\r\n${part}\r\n--XX--\r\n`) },
    { type: "multipart/form-data; boundary=XX", bytes: utf8("") },
    { type: "multipart/form-data; boundary=XX", bytes: utf8(`--XX\r\nno headers here\r\n--XX--\r\n`) },
    { type: `multipart/form-data; boundary=${"b".repeat(200)}`, bytes: utf8(`--${"b".repeat(200)}\r\n${part}\r\n--${"b".repeat(200)}--\r\n`) },
  ]);
}

/** A curl command line that sends exactly this request to `origin`. */
export function curlLine(origin: string, request: GeneratedRequest): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const parts = ["curl", "-sS", "-i", "-X", request.method, quote(`${origin}${request.url}`)];
  for (const [name, value] of Object.entries(request.headers)) parts.push("-H", quote(`${name}: ${value}`));
  if (!request.body) return parts.join(" ");
  return `printf '%b' ${quote(escapeBytes(request.body))} | ${parts.join(" ")} --data-binary @-`;
}

/** Bytes as printf's %b reads them (`\\xHH` for anything not printable), so any body (binary, CRLF, NUL) is replayed exactly. */
function escapeBytes(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) {
    if (byte === 0x5c) out += "\\\\";
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}
