// The limit `npm run bench:git` measures Forgeline's smart HTTP against: `git http-backend` (git's
// own CGI program) behind a bare node:http bridge, no authentication, no database.
//
//   node bench/git-http-backend.mjs <project root> <port>
//
// Every repository under the root is served (GIT_HTTP_EXPORT_ALL); pushes need
// `http.receivepack=true` in the repository's config. Bodies stream both ways.
import { spawn } from "node:child_process";
import http from "node:http";

const [root, port] = process.argv.slice(2);

/** Splits the CGI header block off git's output, then streams the rest as the answer. */
function relay(stdout, response) {
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end === -1) return;
    stdout.off("data", onData);
    let status = 200;
    const headers = {};
    for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    response.writeHead(status, headers);
    response.write(head.subarray(end + 4));
    stdout.pipe(response);
  };
  stdout.on("data", onData);
  stdout.on("end", () => response.headersSent || response.writeHead(502).end());
}

const server = http.createServer((request, response) => {
  const url = new URL(request.url, "http://localhost");
  const child = spawn("git", ["http-backend"], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: request.method,
      CONTENT_TYPE: request.headers["content-type"] ?? "",
      ...(request.headers["content-length"] ? { CONTENT_LENGTH: request.headers["content-length"] } : {}),
      ...(request.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: request.headers["content-encoding"] } : {}),
      ...(request.headers["git-protocol"] ? { GIT_PROTOCOL: request.headers["git-protocol"] } : {}),
      REMOTE_ADDR: request.socket.remoteAddress ?? "",
    },
  });
  request.pipe(child.stdin);
  child.stdin.on("error", () => child.kill("SIGKILL"));
  child.stderr.resume();
  relay(child.stdout, response);
  response.on("close", () => response.writableFinished || child.kill("SIGKILL"));
});
server.listen(Number(port), "127.0.0.1");
