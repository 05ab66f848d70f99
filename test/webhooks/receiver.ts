// A real HTTP receiver on loopback for webhook tests: records every request and answers as told
// (status, body, headers, a delay, or never).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** never answer (the socket stays open until the receiver closes) */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  /** how the next requests are answered (a function decides per request) */
  answer: Answer | ((request: Received) => Answer);
  /** resolves once `count` requests arrived */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<() => void>();
  const receiver: Receiver = {
    url: "",
    port: 0,
    requests: [],
    answer: { status: 200, body: "OK" },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${receiver.requests.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    clear() {
      receiver.requests.length = 0;
    },
    close: () => new Promise<void>((resolve) => {
      for (const release of hanging) release();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      const received: Received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, json };
      receiver.requests.push(received);
      const answer = typeof receiver.answer === "function" ? receiver.answer(received) : receiver.answer;
      if (answer.hang) {
        hanging.add(() => res.destroy());
        return;
      }
      const send = () => {
        res.writeHead(answer.status ?? 200, { "Content-Type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
