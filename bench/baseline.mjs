// The floor `npm run bench` compares Forgeline with: a bare node:http + better-sqlite3 server that
// answers the benchmark's GET requests with the bytes Forgeline answered them with.
//
//   node bench/baseline.mjs <capture.json> <database file> <port>
//
// capture.json (written by bench/run.ts): the SHA-256 digests of the benchmark's tokens, and per
// request URL Forgeline's status, headers and body. Per request the baseline does the work a
// hand-written handler would: SHA-256 of PRIVATE-TOKEN looked up in its own tokens table (401
// without a match), the URL's row looked up, a list's rows read in order with LIMIT and counted
// (an object's single row), the JSON array joined and sent with Forgeline's headers. It checks
// no permissions and joins nothing: it is the floor, not a rival implementation. It refuses to
// start unless every answer it would give equals the captured body byte for byte.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import Database from "better-sqlite3";

const [captureFile, databaseFile, port] = process.argv.slice(2);
const capture = JSON.parse(readFileSync(captureFile, "utf8"));

const db = new Database(databaseFile);
db.pragma("journal_mode = WAL");
db.exec(`
  CREATE TABLE tokens (digest TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE responses (url TEXT PRIMARY KEY, status INTEGER, headers TEXT, list INTEGER) WITHOUT ROWID;
  CREATE TABLE items (url TEXT, pos INTEGER, json TEXT, PRIMARY KEY (url, pos)) WITHOUT ROWID;
`);
const load = db.transaction(() => {
  for (const digest of capture.tokenDigests) db.prepare("INSERT INTO tokens VALUES (?)").run(digest);
  for (const { url, status, headers, body } of capture.responses) {
    const parsed = JSON.parse(body);
    const list = Array.isArray(parsed);
    db.prepare("INSERT INTO responses VALUES (?, ?, ?, ?)").run(url, status, JSON.stringify(headers), list ? 1 : 0);
    (list ? parsed : [parsed]).forEach((item, pos) => db.prepare("INSERT INTO items VALUES (?, ?, ?)").run(url, pos, JSON.stringify(item)));
  }
});
load();

const tokenExists = db.prepare("SELECT 1 FROM tokens WHERE digest = ?").pluck();
const responseOf = db.prepare("SELECT status, headers, list FROM responses WHERE url = ?");
const pageOf = db.prepare("SELECT json FROM items WHERE url = ? ORDER BY pos LIMIT ? OFFSET 0").pluck();
const countOf = db.prepare("SELECT COUNT(*) FROM items WHERE url = ?").pluck();
const PAGE_LIMIT = 100;

function answer(url, token) {
  if (!token || !tokenExists.get(createHash("sha256").update(token).digest("hex"))) {
    return { status: 401, headers: { "content-type": "application/json" }, body: '{"message":"401 Unauthorized"}' };
  }
  const response = responseOf.get(url);
  if (!response) return { status: 404, headers: { "content-type": "application/json" }, body: '{"message":"404 Not found"}' };
  const rows = pageOf.all(url, PAGE_LIMIT);
  let body;
  if (response.list) {
    countOf.get(url); // the count behind the pagination headers (replayed as captured)
    body = `[${rows.join(",")}]`;
  } else {
    body = rows[0];
  }
  return { status: response.status, headers: JSON.parse(response.headers), body };
}

for (const { url, body } of capture.responses) {
  const token = capture.tokens[0];
  const mine = answer(url, token).body;
  if (mine !== body) {
    const at = [...mine].findIndex((char, i) => char !== body[i]);
    console.error(`baseline: ${url} differs from Forgeline's answer at byte ${at}: ${JSON.stringify(mine.slice(at, at + 40))}`);
    process.exit(1);
  }
}

const server = http.createServer((request, response) => {
  const { status, headers, body } = answer(request.url, request.headers["private-token"]);
  response.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) });
  response.end(body);
});
server.listen(Number(port), "127.0.0.1", () => console.log(`baseline listening on ${port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
