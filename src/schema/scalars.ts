import { GraphQLError, Kind } from "graphql";
import { Upload } from "graphql-upload-minimal";
import { builder } from "./builder.js";

/** ISO 8601 with milliseconds and Z, as GitLab renders timestamps. */
builder.scalarType("DateTime", {
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => parseDateTime(value),
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

/**
 * A time starting with a date (`2024-05-01`, `2024-05-01T10:00:00Z`). V8 alone also reads "12345"
 * as the year 12345, which PostgreSQL cannot store: such values are invalid here.
 */
function parseDateTime(value: unknown): Date {
  const date = typeof value === "string" && /^\s*\d{4}-\d{1,2}-\d{1,2}/.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new GraphQLError("DateTime is invalid");
  return date;
}

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
