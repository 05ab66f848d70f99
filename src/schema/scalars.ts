import { GraphQLError, Kind } from "graphql";
import { Upload } from "graphql-upload-minimal";
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

/** A calendar date, YYYY-MM-DD (token expiry dates). */
builder.scalarType("Date", {
  serialize: (value) => (value instanceof Date ? value : new Date(value)).toISOString().slice(0, 10),
  parseValue: (value) => {
    if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
      throw new GraphQLError("Date is invalid");
    }
    return new Date(`${value}T00:00:00.000Z`);
  },
});

/**
 * A file from a multipart request: GraphQL multipart requests (graphql-upload-minimal) and REST
 * multipart bodies both arrive as graphql-upload-minimal `Upload`s; resolvers get its promise.
 */
builder.scalarType("Upload", {
  description: "A file upload (multipart request).",
  serialize: () => {
    throw new GraphQLError("Upload is an input-only type");
  },
  parseValue: (value) => {
    if (value instanceof Upload) return value.promise;
    throw new GraphQLError("Upload value invalid.");
  },
});
