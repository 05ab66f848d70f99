// GraphQL multipart requests (file uploads) on /graphql, parsed by graphql-upload-minimal so that
// /graphql and the REST facade hand resolvers the same Upload values.
import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { processRequest } from "graphql-upload-minimal";
import type { GraphQLParams } from "graphql-yoga";
import { AVATAR_MAX_BYTES } from "./domain/shared/avatars.js";

const LIMITS = { maxFiles: 5, maxFileSize: AVATAR_MAX_BYTES * 5 };

export const isMultipart = (request: Request) =>
  (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

/**
 * The body as a Node stream of Buffers. Yoga hands plugins its fetch ponyfill's Request, whose body
 * is not a native ReadableStream (Readable.fromWeb refuses it), but both are async iterables.
 */
function nodeStreamOf(body: ReadableStream<Uint8Array> | null): Readable {
  async function* chunks() {
    if (!body) return;
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

export async function readGraphqlMultipart(request: Request): Promise<GraphQLParams | GraphQLParams[]> {
  const body = nodeStreamOf(request.body);
  const nodeRequest = Object.assign(body, { headers: Object.fromEntries(request.headers) });
  return (await processRequest(nodeRequest as any, new EventEmitter() as any, LIMITS)) as GraphQLParams | GraphQLParams[];
}
