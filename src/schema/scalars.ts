import { GraphQLError, Kind } from "graphql";
import { builder } from "./builder.js";

/** ISO 8601 with milliseconds and Z, as GitLab renders timestamps. */
builder.scalarType("DateTime", {
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== "string" || Number.isNaN(date.getTime())) throw new GraphQLError("DateTime is invalid");
    return date;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || Number.isNaN(new Date(ast.value).getTime())) {
      throw new GraphQLError("DateTime is invalid");
    }
    return new Date(ast.value);
  },
});

/** Free-form JSON (feature flag gates, settings maps). */
builder.scalarType("JSON", {
  serialize: (value) => value,
  parseValue: (value) => value,
});
