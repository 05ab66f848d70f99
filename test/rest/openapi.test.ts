// The OpenAPI 3.1 document of /api/v4 (src/rest/openapi/): public, valid for a maintained OpenAPI
// validator, one operation per row of the route table (method, path, success status, operationId
// = root field), GitLab's params, bodies, errors and pagination headers, and real answers that
// match what it documents.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createIssue } from "../helpers/issues.js";
import { createProject } from "../helpers/factories.js";
import { routes, successStatus } from "../../src/rest/routes.js";

let t: TestApp;
let doc: any;

beforeAll(async () => {
  t = await startTestApp();
  const response = await rawRequest(t.app, "GET", "/api/v4/openapi.json");
  expect(response.status).toBe(200);
  doc = response.body;
});

const openApiPath = (path: string) => path.replace(/[:*](\w+)/g, "{$1}");
const operation = (method: string, path: string) => doc.paths[openApiPath(path)]?.[method.toLowerCase()];
const operationById = (id: string) =>
  Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) => Object.entries(ops).map(([method, op]: [string, any]) => ({ path, method, op })))
    .find(({ op }) => op.operationId === id)!;

describe("serving", () => {
  it("answers the document as JSON and YAML without a token, even with a bad one", async () => {
    const json = await rawRequest(t.app, "GET", "/api/v4/openapi.json", { headers: { "PRIVATE-TOKEN": "not-a-token" } });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/json");
    const yaml = await rawRequest(t.app, "GET", "/api/v4/openapi.yaml");
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get("content-type")).toMatch(/^application\/yaml/);
    expect(parseYaml(yaml.text)).toEqual(doc);
  });

  it("answers HEAD without a body, and leaves other methods to the route table (404 route)", async () => {
    const head = await t.app.fetch(new Request("http://forgeline.test/api/v4/openapi.json", { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await rawRequest(t.app, "POST", "/api/v4/openapi.json");
    expect([post.status, post.body]).toEqual([404, { error: "404 Not Found" }]);
  });

  it("serves the reference page and its assets offline, with their content types", async () => {
    const page = await rawRequest(t.app, "GET", "/api/v4/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.every((url) => url.startsWith("/api/v4/docs/"))).toBe(true); // nothing from elsewhere
    for (const url of assets) {
      const asset = await rawRequest(t.app, "GET", url);
      expect([url, asset.status]).toEqual([url, 200]);
      const ext = url.split(".").at(-1)!;
      expect(asset.headers.get("content-type")).toMatch({ css: /^text\/css/, js: /^text\/javascript/, png: /^image\/png$/ }[ext]!);
    }
    const initializer = await rawRequest(t.app, "GET", "/api/v4/docs/initializer.js");
    expect(initializer.text).toContain('url: "/api/v4/openapi.json"');
    expect(initializer.text).toContain("validatorUrl: null");
    expect((await rawRequest(t.app, "GET", "/api/v4/docs/index.js")).status).toBe(404);
    expect((await rawRequest(t.app, "GET", "/api/v4/docs/../package.json")).status).toBe(404);
  });
});

describe("the document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has every row of the route table as an operation: method, path, success status, operationId", () => {
    const operations = Object.values(doc.paths).flatMap((ops: any) => Object.values(ops));
    expect(operations).toHaveLength(routes.length);
    for (const route of routes) {
      const op = operation(route.method, route.path);
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op["x-graphql-field"]).toBe(route.field);
      expect(op.operationId.split("_")[0]).toBe(route.field.split(".")[1]);
      expect(Object.keys(op.responses)).toContain(String(successStatus(route)));
      for (const code of ["400", "401", "403", "404", "409", "422", "429"]) expect(op.responses[code].$ref).toMatch(/^#\/components\/responses\//);
    }
    const ids = operations.map((op: any) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationById("projectMergeRequests").path).toBe("/projects/{id}/merge_requests");
    expect(operationById("metadata").path).toBe("/metadata"); // /version shares the root field
  });

  it("compiles every schema it documents (what a client generator or a validator reads)", () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: doc.components }, "doc");
    for (const name of Object.keys(doc.components.schemas)) expect(() => ajv.getSchema(`doc#/components/schemas/${name}`)).not.toThrow();
  });

  it("gives path and query params their GraphQL types: integers, enums, `name[]` arrays, required", () => {
    const list = operation("GET", "/projects/:id/merge_requests");
    const param = (name: string) => list.parameters.find((p: any) => p.name === name);
    expect(param("id")).toMatchObject({ in: "path", required: true, schema: { type: "string" } });
    expect(param("page")).toMatchObject({ in: "query", required: false, schema: { type: "integer" } });
    expect(param("state").schema.enum).toEqual(expect.arrayContaining(["opened", "closed", "merged", "all"]));
    expect(param("labels[]")).toMatchObject({ schema: { type: "array", items: { type: "string" } }, style: "form", explode: true });
    expect(param("iids[]")).toMatchObject({ schema: { type: "array", items: { type: "integer" } } });
    const issue = operation("GET", "/projects/:id/issues/:issue_iid/award_emoji");
    expect(issue.parameters.find((p: any) => p.name === "issue_iid")).toMatchObject({ in: "path", required: true, schema: { type: "integer" } });
  });

  it("takes POST/PUT params as JSON, form or multipart bodies, with the route's files as binary parts", () => {
    const create = operation("POST", "/groups");
    expect(Object.keys(create.requestBody.content)).toEqual(["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
    expect(create.requestBody.content["multipart/form-data"].schema.properties.avatar).toEqual({ type: "string", format: "binary" });
    expect(create.requestBody.content["application/json"].schema).toMatchObject({ required: ["name", "path"] });
    expect(create.requestBody.content["application/json"].schema.properties.avatar).toBeUndefined();
    expect(create.parameters).toEqual([]);
    const approve = operation("POST", "/projects/:id/merge_requests/:merge_request_iid/approve");
    expect(approve.parameters.map((p: any) => p.name)).toEqual(["id", "merge_request_iid"]);
  });

  it("answers 204 routes without content and text routes as text/plain", () => {
    const remove = operation("DELETE", "/projects/:id/issues/:issue_iid");
    expect(remove.responses["204"]).toEqual({ description: expect.any(String) });
    expect(Object.keys(operation("GET", "/projects/:id/snippets/:snippet_id/raw").responses["200"].content)).toEqual(["text/plain"]);
    expect(operation("PUT", "/groups/:id/hooks/:hook_id/url_variables/:key").responses["204"].content).toBeUndefined();
  });

  it("documents a route's other answers beside its entity (a cherry-pick's or revert's dry run)", () => {
    for (const path of ["/projects/:id/repository/commits/:sha/cherry_pick", "/projects/:id/repository/commits/:sha/revert"]) {
      const answers = operation("POST", path).responses;
      expect(answers["201"].content["application/json"].schema).toBeDefined();
      expect(answers["200"].content["application/json"].schema).toMatchObject({ properties: { dry_run: { enum: ["success"] } } });
    }
  });

  it("puts the pagination headers on paginated routes only", () => {
    const headers = operation("GET", "/projects/:id/merge_requests").responses["200"].headers;
    expect(Object.keys(headers)).toEqual(["X-Total", "X-Total-Pages", "X-Per-Page", "X-Page", "X-Next-Page", "X-Prev-Page", "Link"]);
    expect(operation("GET", "/projects/:id").responses["200"].headers).toBeUndefined();
    expect(Object.keys(operation("GET", "/projects").responses["200"].headers)).toContain("X-Page"); // offset unless pagination=keyset
  });

  it("documents GitLab's error bodies, the auth schemes, tags per resource and deprecations", () => {
    expect(Object.keys(doc.components.responses)).toEqual(expect.arrayContaining(["BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "UnprocessableEntity", "TooManyRequests"]));
    expect(doc.components.securitySchemes).toMatchObject({
      privateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN" },
      privateTokenQuery: { type: "apiKey", in: "query", name: "private_token" },
      bearer: { type: "http", scheme: "bearer" },
      sudo: { type: "apiKey", in: "header", name: "Sudo" },
    });
    expect(operation("POST", "/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji").tags).toEqual(["award_emoji"]);
    expect(operation("GET", "/projects/:id/merge_requests/:merge_request_iid").tags).toEqual(["merge_requests"]);
    expect(operation("PUT", "/groups/:id/hooks/:hook_id/custom_headers/:key").tags).toEqual(["hooks"]);
    expect(operation("GET", "/projects/:id/merge_requests/:merge_request_iid/changes").deprecated).toBe(true);
    const project = operation("POST", "/projects").requestBody.content["application/json"].schema.properties;
    expect(project.issues_enabled.deprecated).toBe(true);
    expect(project.issues_access_level.deprecated).toBeUndefined();
  });
});

describe("real answers match it", () => {
  let validate: (ref: string, value: unknown) => unknown[];
  beforeAll(() => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ components: doc.components }, "doc");
    validate = (ref, value) => {
      const check = ajv.compile({ $ref: `doc${ref}` });
      return check(value) ? [] : check.errors!;
    };
  });

  const bodySchema = (method: string, path: string, status: number) => operation(method, path).responses[status].content["application/json"].schema;
  const refOf = (schema: any): string => (schema.type === "array" ? schema.items.$ref : schema.$ref);

  it("a project, its issue, its award emoji list (paginated: the headers it documents)", async () => {
    const project = await createProject(t.root, { visibility: "public" });
    const issue = await createIssue(t.root, project.id, { title: "Documented" });
    await t.root.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name: "thumbsup" });

    const got = await t.root.get(`/projects/${project.id}`);
    expect(validate(refOf(bodySchema("GET", "/projects/:id", 200)), got.body)).toEqual([]);
    const one = await t.root.get(`/projects/${project.id}/issues/${issue.iid}`);
    expect(validate(refOf(bodySchema("GET", "/projects/:id/issues/:issue_iid", 200)), one.body)).toEqual([]);
    const list = await t.root.get(`/projects/${project.id}/issues/${issue.iid}/award_emoji`);
    expect(list.body).toHaveLength(1);
    const schema = bodySchema("GET", "/projects/:id/issues/:issue_iid/award_emoji", 200);
    expect(schema.type).toBe("array");
    expect(validate(refOf(schema), list.body[0])).toEqual([]);
    for (const header of Object.keys(operation("GET", "/projects/:id/issues/:issue_iid/award_emoji").responses["200"].headers)) {
      expect(list.headers.has(header), header).toBe(true);
    }
  });

  it("resource label events, and issue and merge request lists with_labels_details (labels as titles or LabelBasic)", async () => {
    const project = await createProject(t.root, { visibility: "public" });
    const issue = await createIssue(t.root, project.id, { title: "Labelled", labels: "documented" });
    const events = await t.root.get(`/projects/${project.id}/issues/${issue.iid}/resource_label_events`);
    expect(events.body).toHaveLength(1);
    const eventsSchema = bodySchema("GET", "/projects/:id/issues/:issue_iid/resource_label_events", 200);
    expect(validate(refOf(eventsSchema), events.body[0])).toEqual([]);
    const one = await t.root.get(`/projects/${project.id}/issues/${issue.iid}/resource_label_events/${events.body[0].id}`);
    expect(validate(refOf(bodySchema("GET", "/projects/:id/issues/:issue_iid/resource_label_events/:resource_label_event_id", 200)), one.body)).toEqual([]);
    for (const path of ["/projects/:id/merge_requests/:merge_request_iid/resource_label_events", "/projects/:id/merge_requests/:merge_request_iid/resource_label_events/:resource_label_event_id"]) {
      expect(operation("GET", path).responses["200"], path).toBeDefined();
    }
    for (const path of ["/projects/:id/issues", "/issues", "/projects/:id/merge_requests", "/groups/:id/merge_requests", "/merge_requests"]) {
      expect(operation("GET", path).parameters.find((p: any) => p.name === "with_labels_details")?.schema, path).toEqual({ type: "boolean" });
    }
    const schema = refOf(bodySchema("GET", "/projects/:id/issues", 200));
    for (const details of ["true", "false"]) {
      const list = await t.root.get(`/projects/${project.id}/issues`, { query: { with_labels_details: details } });
      expect(typeof list.body[0].labels[0]).toBe(details === "true" ? "object" : "string");
      expect(validate(schema, list.body[0])).toEqual([]);
    }
    // a label object missing a field is off the documented shape
    const list = await t.root.get(`/projects/${project.id}/issues`, { query: { with_labels_details: "true" } });
    delete list.body[0].labels[0].text_color;
    expect(validate(schema, list.body[0])).not.toEqual([]);
  });

  it("an error answer has a documented error body", async () => {
    const missing = await t.anon.get("/projects/999999/issues/1/award_emoji");
    expect(missing.status).toBe(404);
    expect(validate("#/components/schemas/Error", missing.body)).toEqual([]);
    const bad = await t.root.get("/projects/1/issues/not-a-number/award_emoji");
    expect(bad.status).toBe(400);
    expect(validate("#/components/schemas/Error", bad.body)).toEqual([]);
  });
});
