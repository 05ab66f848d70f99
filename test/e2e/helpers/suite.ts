// One real server per test file: `const suite = useServer();` starts it in beforeAll and stops it
// in afterAll; tests read `suite.server` and `suite.root`.
import { afterAll, beforeAll } from "vitest";
import { restClient, type RestClient } from "./rest.js";
import { startServer, type RunningServer, type ServerOptions } from "./server.js";

export interface ServerSuite {
  readonly server: RunningServer;
  /** REST client acting as root */
  readonly root: RestClient;
}

const START_TIMEOUT_MS = 60_000;

export function useServer(options: ServerOptions = {}): ServerSuite {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await startServer(options);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await running?.stop();
  });
  const server = () => {
    if (!running) throw new Error("the e2e server is not running (useServer() must be called at the top of the file)");
    return running;
  };
  return {
    get server() { return server(); },
    get root() { return restClient(server()); },
  };
}
