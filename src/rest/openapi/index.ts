// /api/v4/openapi.json, /api/v4/openapi.yaml and the reference page /api/v4/docs: public, answered
// before the route table (app.ts), from a document generated once at start.
import type { GraphQLSchema } from "graphql";
import { stringify } from "yaml";
import { createDocsPage } from "./docs-page.js";
import { buildOpenApiDocument } from "./document.js";

/** The serialized document per schema: generated once, whatever the number of apps (tests start many). */
const generated = new WeakMap<GraphQLSchema, { json: string; yaml: string }>();

function documentOf(schema: GraphQLSchema): { json: string; yaml: string } {
  let texts = generated.get(schema);
  if (!texts) {
    const document = buildOpenApiDocument(schema);
    texts = { json: JSON.stringify(document), yaml: stringify(document, { aliasDuplicateObjects: false }) };
    generated.set(schema, texts);
  }
  return texts;
}

export function createApiDocsHandler(schema: GraphQLSchema, prefix: string) {
  const { json, yaml } = documentOf(schema);
  const page = createDocsPage(`${prefix}/docs`, `${prefix}/openapi.json`);
  const text = (body: string, type: string) =>
    new Response(body, { headers: { "Content-Type": type, "X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": "*" } });

  /** The answer for a GET or HEAD of one of these paths, or undefined. */
  const answer = (pathname: string): Response | undefined => {
    if (pathname === `${prefix}/openapi.json`) return text(json, "application/json");
    if (pathname === `${prefix}/openapi.yaml`) return text(yaml, "application/yaml; charset=utf-8");
    return page(pathname);
  };
  return (method: string, pathname: string): Response | undefined => {
    if (method !== "GET" && method !== "HEAD") return undefined;
    const response = answer(pathname);
    return response && method === "HEAD" ? new Response(null, { headers: response.headers }) : response;
  };
}
