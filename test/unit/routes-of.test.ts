// The route table is read off the root fields' declarations (routesOf): a field's Upload args
// become its file params, a RawBlob answer makes a text route, and a field that declares no route
// or a route on the wrong root type stops the start.
import { type GraphQLFieldConfigMap, GraphQLBoolean, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, GraphQLSchema, GraphQLString } from "graphql";
import { describe, expect, it } from "vitest";
import * as route from "../../src/rest/route.js";
import { routesOf } from "../../src/rest/routes.js";

const Upload = new GraphQLScalarType({ name: "Upload" });
const RawBlob = new GraphQLObjectType({ name: "RawBlob", fields: { content: { type: GraphQLString } } });
const schemaWith = (query: GraphQLFieldConfigMap<unknown, unknown>, mutation: GraphQLFieldConfigMap<unknown, unknown> = {}) =>
  new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: query }),
    ...(Object.keys(mutation).length ? { mutation: new GraphQLObjectType({ name: "Mutation", fields: mutation }) } : {}),
  });

describe("routesOf", () => {
  it("reads each declared route with its field, files and text flag", () => {
    const schema = schemaWith(
      {
        version: { type: GraphQLString, extensions: { rest: [route.get("/version"), route.get("/metadata")] } },
        snippetRaw: { type: new GraphQLNonNull(RawBlob), args: { id: { type: GraphQLString } }, extensions: { rest: route.get("/snippets/:id/raw") } },
      },
      {
        updateUser: {
          type: GraphQLBoolean,
          args: { id: { type: GraphQLString }, name: { type: GraphQLString }, avatar: { type: Upload } },
          extensions: { rest: route.put("/users/:id") },
        },
        deleteGroup: { type: GraphQLBoolean, extensions: { rest: route.del("/groups/:id", { status: 202 }) } },
      },
    );
    expect(routesOf(schema)).toEqual([
      { method: "GET", path: "/version", field: "Query.version" },
      { method: "GET", path: "/metadata", field: "Query.version" },
      { method: "GET", path: "/snippets/:id/raw", field: "Query.snippetRaw", text: true },
      { method: "PUT", path: "/users/:id", field: "Mutation.updateUser", files: ["avatar"] },
      { method: "DELETE", path: "/groups/:id", field: "Mutation.deleteGroup", status: 202 },
    ]);
  });

  it("refuses a root field without a route", () => {
    const schema = schemaWith({ users: { type: GraphQLString } });
    expect(() => routesOf(schema)).toThrow("root field users declares no REST route");
  });

  it("refuses a GET route on a mutation and a write route on a query", () => {
    const getOnMutation = schemaWith({ a: { type: GraphQLString, extensions: { rest: route.get("/a") } } }, { b: { type: GraphQLString, extensions: { rest: route.get("/b") } } });
    expect(() => routesOf(getOnMutation)).toThrow("Mutation.b: a GET route belongs on a Query field");
    const postOnQuery = schemaWith({ a: { type: GraphQLString, extensions: { rest: route.post("/a") } } });
    expect(() => routesOf(postOnQuery)).toThrow("Query.a: a POST route belongs on a Mutation field");
  });
});
