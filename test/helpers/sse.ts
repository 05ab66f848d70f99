// A GraphQL subscription on the public graph over server-sent events (yoga's SSE, "distinct
// connections" mode): POST with `Accept: text/event-stream`, then read the stream's `next` events.
import { PUBLIC_GRAPH_PATH, type App } from "../../src/app.js";
import type { ApiClient } from "./api.js";
import type { GraphResult } from "./graph.js";

export interface SseSubscription {
  status: number;
  /** the next `next` event's payload; null when the stream completes or nothing comes within `timeoutMs` */
  next(timeoutMs?: number): Promise<GraphResult["body"] | null>;
  close(): Promise<void>;
}

export async function subscribeSse(client: ApiClient, query: string, variables: Record<string, unknown> = {}, app: App = client.app): Promise<SseSubscription> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "text/event-stream" };
  if (client.token) headers["PRIVATE-TOKEN"] = client.token;
  const aborted = new AbortController();
  const response = await app.fetch(
    new Request(`http://forgeline.test${PUBLIC_GRAPH_PATH}`, { method: "POST", headers, body: JSON.stringify({ query, variables }), signal: aborted.signal }),
  );
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let reading: Promise<ReadableStreamReadResult<string>> | undefined;

  /** The next chunk of text, "" on timeout (the read stays pending for the next call), null at the end. */
  async function chunk(timeoutMs: number): Promise<string | null> {
    reading ??= reader.read();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
    const result = await Promise.race([reading, timeout]);
    clearTimeout(timer);
    if (result === "timeout") return "";
    reading = undefined;
    return result.done ? null : result.value;
  }

  async function next(timeoutMs = 5_000): Promise<GraphResult["body"] | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffered.indexOf("\n\n");
      if (end >= 0) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const lines = message.split("\n");
        const event = lines.find((line) => line.startsWith("event:"))?.slice(6).trim();
        const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("\n");
        if (event === "complete") return null;
        if (event === "next" || (!event && data)) return JSON.parse(data);
        continue; // a keep-alive comment
      }
      const left = deadline - Date.now();
      if (left <= 0) return null;
      const text = await chunk(left);
      if (text === null) return null;
      buffered += text;
    }
  }

  return {
    status: response.status,
    next,
    async close() {
      aborted.abort();
      await reader.cancel().catch(() => {});
    },
  };
}
