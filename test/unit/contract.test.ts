// The route table and the GraphQL schema agree, and the printed schemas are current.
import { readFileSync } from "node:fs";
import { isNonNullType } from "graphql";
import { describe, expect, it } from "vitest";
import { rootField } from "../../src/rest/adapter.js";
import { routes } from "../../src/rest/routes.js";
import { schema } from "../../src/schema/index.js";
import { printedPublicSchema, printedRestSchema } from "../../src/schema/print.js";

describe("route table", () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))("%s has its root field and path args", (_name, route) => {
    const field = rootField(schema, route);
    for (const param of route.path.match(/[:*]\w+/g) ?? []) {
      const arg = field.args.find((a) => a.name === param.slice(1));
      expect(arg, `${route.field} lacks argument ${param}`).toBeDefined();
      expect(isNonNullType(arg!.type), `${route.field}(${param}) must be required`).toBe(true);
    }
    expect(route.field.startsWith(route.method === "GET" ? "Query." : "Mutation.")).toBe(true);
  });

  it("gives aliases (routes of one root field) the same path params", () => {
    const params = (path: string) => (path.match(/[:*]\w+/g) ?? []).sort().join(",");
    const byField = new Map<string, string>();
    for (const route of routes) {
      const seen = byField.get(route.field);
      if (seen === undefined) byField.set(route.field, params(route.path));
      else expect(params(route.path), `${route.method} ${route.path}`).toBe(seen);
    }
  });

  it("has no two routes that match the same requests", () => {
    const shapes = routes.map((r) => `${r.method} ${r.path.replace(/[:*]\w+/g, ":")}`);
    expect(shapes.length).toBe(new Set(shapes).size);
  });
});

describe("schema.graphql", () => {
  it("is the printed public graph (run `npm run schema:print`)", () => {
    expect(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8")).toBe(printedPublicSchema());
  });
});

describe("schema.rest.graphql", () => {
  it("is the printed schema of the REST facade (run `npm run schema:print`)", () => {
    expect(readFileSync(new URL("../../schema.rest.graphql", import.meta.url), "utf8")).toBe(printedRestSchema());
  });
});
