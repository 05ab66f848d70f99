// The delivery benchmark's receivers, in a process of their own (so that they take no CPU from the
// worker measured): a fast one answering 200 at once and a slow one answering 200 after 1 s. Each
// delivery body carries `bench_enqueued_at` (ms since the epoch); the fast receiver keeps when each
// arrived and how long after its enqueue. Driven over IPC: "reset", "stats".
import http from "node:http";

const SLOW_MS = Number(process.argv[2] ?? 1000);
let fast = [];
let slow = 0;

function listen(handler) {
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => handler(Buffer.concat(chunks).toString("utf8"), response));
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

const fastPort = await listen((body, response) => {
  const at = Date.now();
  try {
    fast.push([at, at - JSON.parse(body).bench_enqueued_at]);
  } catch {
    fast.push([at, NaN]);
  }
  response.writeHead(200).end("ok");
});
const slowPort = await listen((_body, response) => {
  setTimeout(() => {
    slow++;
    response.writeHead(200).end("ok");
  }, SLOW_MS);
});

process.on("message", (message) => {
  if (message === "reset") {
    fast = [];
    slow = 0;
    process.send({ reset: true });
  } else if (message === "stats") {
    process.send({ fast, slow });
  }
});
process.send({ fastPort, slowPort });
// the benchmark is gone (even without stopping us): so are we
process.on("disconnect", () => process.exit(0));
