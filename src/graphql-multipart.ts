// GraphQL multipart requests (file uploads) on /graphql, parsed by graphql-upload-minimal so that
// /graphql and the REST facade hand resolvers the same Upload values.
import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { processRequest } from "graphql-upload-minimal";
import type { GraphQLParams } from "graphql-yoga";
import { AVATAR_MAX_BYTES } from "./domain/avatars.js";

const LIMITS = { maxFiles: 5, maxFileSize: AVATAR_MAX_BYTES * 5 };

export const isMultipart = (request: Request) =>
  (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

export async function readGraphqlMultipart(request: Request): Promise<GraphQLParams | GraphQLParams[]> {
  const body = request.body ? Readable.fromWeb(request.body as unknown as NodeReadableStream) : Readable.from([]);
  const nodeRequest = Object.assign(body, { headers: Object.fromEntries(request.headers) });
  return (await processRequest(nodeRequest as any, new EventEmitter() as any, LIMITS)) as GraphQLParams | GraphQLParams[];
}
