// Each route's GraphQL operation, built once at start the way SOFA builds it (the root field with
// its entity's full selection, SOFA's models and depth limit) over the REST view of the schema.
import { Kind, OperationTypeNode, type DocumentNode, type GraphQLSchema } from "graphql";
import { buildOperationNodeForField, filterSchema } from "@graphql-tools/utils";
import { createSofa } from "sofa-api";
import { exposurePlan, type ExposurePlan } from "./exposure.js";
import type { Route } from "./routes.js";

export interface RouteOperation {
  document: DocumentNode;
  operationName: string | undefined;
  /** the root field, whose value in `data` is the answer */
  fieldName: string;
  /** fields the REST entity exposes conditionally (exposure.ts) */
  exposure?: ExposurePlan;
}

/** SOFA's entity depth: nested objects two levels down (a user's namespace, not its owner's). */
const DEPTH_LIMIT = 2;

/** One operation per root field (routes that alias a field share it). */
export function buildRouteOperations(schema: GraphQLSchema, routes: readonly Route[]): Map<string, RouteOperation> {
  const sofa = createSofa({ schema: restView(schema), basePath: "", depthLimit: DEPTH_LIMIT });
  const operations = new Map<string, RouteOperation>();
  for (const route of routes) {
    if (operations.has(route.field)) continue;
    const [type, fieldName] = route.field.split(".") as ["Query" | "Mutation", string];
    const node = buildOperationNodeForField({
      kind: type === "Query" ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
      schema: sofa.schema,
      field: fieldName,
      models: sofa.models,
      ignore: sofa.ignore,
      circularReferenceDepth: sofa.depthLimit,
    });
    const root = (type === "Query" ? sofa.schema.getQueryType() : sofa.schema.getMutationType())!.getFields()[fieldName]!;
    const exposure = exposurePlan(root.type, node.selectionSet.selections.find((s) => s.kind === Kind.FIELD)?.selectionSet);
    operations.set(route.field, { document: { kind: Kind.DOCUMENT, definitions: [node] }, operationName: node.name?.value, fieldName, exposure });
  }
  return operations;
}

/**
 * The schema REST entities select from: without the fields marked `extensions: { rest: false }`
 * (GraphQL-only fields, such as `award_emoji` on issues, that GitLab's REST entities lack).
 */
function restView(schema: GraphQLSchema): GraphQLSchema {
  return filterSchema({
    schema,
    objectFieldFilter: (_type, _name, field) => field.extensions?.rest !== false,
  });
}
