// THE route table of /api/v4, read off the REST schema: each root field declares its GitLab
// method + path in `extensions.rest` (route.ts). A field's Upload args are its file params and a
// RawBlob answer makes it a text route, so neither is declared twice.
import { isNonNullType, isObjectType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from "graphql";
import { schema } from "../schema/index.js";
import { isUpload } from "./params.js";
import type { Route, RouteDeclaration, VariantDeclaration } from "./route.js";

export type { Method, Route } from "./route.js";

/** Every route the schema's root fields declare, Query fields first, each in declaration order. */
export function routesOf(restSchema: GraphQLSchema): Route[] {
  const roots = [restSchema.getQueryType(), restSchema.getMutationType()].filter((root) => root !== null && root !== undefined);
  return roots.flatMap((root) =>
    Object.values(root.getFields())
      .filter((field) => !field.extensions?.restVariant)
      .flatMap((field) => declaredRoutes(field).map((declared) => routeOf(root, field, declared))),
  );
}

/** A route's variant: the route as its variant field answers it, and the param value that selects it. */
export interface RouteVariant {
  route: Route;
  param: string;
  value: string;
}

/** The variants of each route, by the route's root field (`Query.search`), read off the schema. */
export function routeVariantsOf(restSchema: GraphQLSchema, table: readonly Route[]): Map<string, RouteVariant[]> {
  const variants = new Map<string, RouteVariant[]>();
  const query = restSchema.getQueryType();
  for (const field of Object.values(query?.getFields() ?? {})) {
    const declared = field.extensions?.restVariant as VariantDeclaration | undefined;
    if (!declared) continue;
    const base = table.find((route) => route.field === `Query.${declared.of}`);
    if (!base) throw new Error(`root field ${field.name} is a variant of ${declared.of}, which declares no route`);
    const list = variants.get(base.field) ?? [];
    list.push({ route: { ...base, field: `Query.${field.name}` }, param: declared.param, value: declared.value });
    variants.set(base.field, list);
  }
  return variants;
}

export const routes: Route[] = routesOf(schema);

export function successStatus(route: Route): number {
  if (route.status) return route.status;
  return { GET: 200, POST: 201, PUT: 200, PATCH: 200, DELETE: 204 }[route.method];
}

function declaredRoutes(field: GraphQLField<unknown, unknown>): readonly RouteDeclaration[] {
  const declared = field.extensions?.rest as RouteDeclaration | readonly RouteDeclaration[] | undefined;
  if (!declared) throw new Error(`root field ${field.name} declares no REST route (extensions.rest)`);
  return Array.isArray(declared) ? declared : [declared as RouteDeclaration];
}

function routeOf(root: GraphQLObjectType, field: GraphQLField<unknown, unknown>, declared: RouteDeclaration): Route {
  const isQuery = root.name === "Query";
  if ((declared.method === "GET") !== isQuery) throw new Error(`${root.name}.${field.name}: a ${declared.method} route belongs on a ${declared.method === "GET" ? "Query" : "Mutation"} field`);
  const files = field.args.filter((arg) => isUpload(arg.type)).map((arg) => arg.name);
  const text = isNonNullType(field.type) && isObjectType(field.type.ofType) && field.type.ofType.name === "RawBlob";
  return {
    ...declared,
    field: `${isQuery ? "Query" : "Mutation"}.${field.name}`,
    ...(files.length ? { files } : {}),
    ...(text ? { text } : {}),
  };
}
