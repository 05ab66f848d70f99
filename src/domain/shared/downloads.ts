// A file the API sends as it is rather than as JSON (a raw blob, an archive): its headers and a
// way to read it, opened only when the body is sent (a HEAD request never opens it), as a stream
// for what may be large.
import type { Readable } from "node:stream";

export interface Download {
  /** Content-Type, Content-Disposition and any other header of the answer */
  headers: Record<string, string>;
  open(): Readable | Buffer;
}
