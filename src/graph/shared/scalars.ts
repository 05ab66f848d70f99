// GitLab's scalars on the public graph: `Time` is an ISO 8601 timestamp, `Upload` a file of a
// GraphQL multipart request (graphql-upload-minimal parses every multipart body, see app.ts).
import { GraphQLError, Kind } from "graphql";
import { Upload } from "graphql-upload-minimal";
import { builder } from "./builder.js";

builder.scalarType("Time", {
  serialize: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
  parseValue: (value) => parseTime(value),
  parseLiteral: (ast) => parseTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

function parseTime(value: unknown): Date {
  const date = typeof value === "string" && /^\s*\d{4}-\d{1,2}-\d{1,2}/.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new GraphQLError("Time is invalid");
  return date;
}

builder.scalarType("Upload", {
  description: "A file of a GraphQL multipart request.",
  serialize: () => {
    throw new GraphQLError("Upload is an input-only type");
  },
  parseValue: (value) => {
    if (value instanceof Upload) return value.promise;
    throw new GraphQLError("Upload value invalid.");
  },
});
