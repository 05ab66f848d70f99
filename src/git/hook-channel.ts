// How git's pre-receive and post-receive hooks reach the server process that started
// `git receive-pack`: the hook is a small bash script (a Node hook would cost ~130 ms to start)
// that connects to this process on a loopback port, names the push by a one-time token, sends
// the ref updates, prints the answer's lines (git shows them as "remote: ...") and exits with the
// answer's verdict. The script is written at start into the repositories folder and named to git
// with `-c core.hooksPath=...` on receive-pack alone, so no repository carries hooks of its own.
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";

export interface HookRefUpdate {
  oldSha: string;
  newSha: string;
  ref: string;
}

export interface HookRequest {
  hook: "pre-receive" | "post-receive";
  updates: HookRefUpdate[];
  /** pre-receive: the folder of the pushed objects, not yet in the repository */
  quarantinePath: string | null;
  /** `git push -o <option>` values */
  pushOptions: string[];
}

export interface HookAnswer {
  /** lines shown to the pushing client */
  messages: string[];
  /** false: refuse the push (pre-receive) */
  ok: boolean;
}

export type HookHandler = (request: HookRequest) => Promise<HookAnswer>;

const HOOK_SCRIPT = `#!/bin/bash
# Forgeline's pre-receive and post-receive hook (git runs it under either name). It hands the
# push's ref updates to the server process that started git receive-pack (src/git/hook-channel.ts),
# prints that process's answer (git shows it as "remote: ...") and exits with its verdict.
if [ -z "$FORGELINE_HOOK_PORT" ] || [ -z "$FORGELINE_HOOK_TOKEN" ]; then
  echo "GitLab: Failed to authorize your Git request: internal API unreachable" >&2
  exit 1
fi
exec 3<>"/dev/tcp/127.0.0.1/$FORGELINE_HOOK_PORT" || exit 1
{
  printf '%s %s\\n' "$FORGELINE_HOOK_TOKEN" "\${0##*/}"
  printf 'quarantine %s\\n' "$GIT_QUARANTINE_PATH"
  i=0
  while [ "$i" -lt "\${GIT_PUSH_OPTION_COUNT:-0}" ]; do
    option="GIT_PUSH_OPTION_$i"
    printf 'option %s\\n' "\${!option}"
    i=$((i + 1))
  done
  while read -r old new ref; do
    printf 'ref %s %s %s\\n' "$old" "$new" "$ref"
  done
  printf 'end\\n'
} >&3
status=1
while IFS= read -r line <&3; do
  case "$line" in
    "exit "*) status="\${line#exit }"; break ;;
    *) printf '%s\\n' "$line" >&2 ;;
  esac
done
exit "$status"
`;

/**
 * Writes the hook script under both names into `<folder>` (replacing a file whole, as another
 * server sharing the folder may be running it); returns the folder for core.hooksPath.
 */
export function installHookScripts(folder: string): string {
  mkdirSync(folder, { recursive: true });
  for (const name of ["pre-receive", "post-receive"]) {
    const temporary = path.join(folder, `.${name}.${process.pid}`);
    writeFileSync(temporary, HOOK_SCRIPT, { mode: 0o755 });
    renameSync(temporary, path.join(folder, name));
  }
  return folder;
}

/** The longest hook request accepted (ref lines of a push of many refs). */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export class HookChannel {
  private server: Server | null = null;
  private port: Promise<number> | null = null;
  private readonly handlers = new Map<string, HookHandler>();

  /** Registers the handler of one receive-pack run; returns the environment its hooks need. */
  async open(handler: HookHandler): Promise<{ env: Record<string, string>; close(): void }> {
    const port = await this.listen();
    const token = randomBytes(24).toString("hex");
    this.handlers.set(token, handler);
    return {
      env: { FORGELINE_HOOK_PORT: String(port), FORGELINE_HOOK_TOKEN: token },
      close: () => this.handlers.delete(token),
    };
  }

  close(): void {
    this.server?.close();
    this.server = null;
    this.port = null;
  }

  private listen(): Promise<number> {
    this.port ??= new Promise((resolve, reject) => {
      const server = createServer((socket) => this.serve(socket));
      server.on("error", reject);
      // exclusive: in a cluster's web process a shared port would hand the hook's connection to
      // any process, and only the one that started receive-pack knows its token
      server.listen({ port: 0, host: "127.0.0.1", exclusive: true }, () => {
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : 0);
      });
      server.unref();
      this.server = server;
    });
    return this.port;
  }

  private serve(socket: Socket): void {
    let text = "";
    socket.setEncoding("utf8");
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > MAX_REQUEST_BYTES) return socket.destroy();
      if (!text.endsWith("end\n")) return;
      socket.removeAllListeners("data");
      void this.answer(text).then(
        (answer) => socket.end(`${answer.messages.map((line) => `${line.replace(/[\r\n]/g, " ")}\n`).join("")}exit ${answer.ok ? 0 : 1}\n`),
        () => socket.end("GitLab: Internal API error (500)\nexit 1\n"),
      );
    });
  }

  private async answer(text: string): Promise<HookAnswer> {
    const [first, ...lines] = text.split("\n");
    const [token, name] = (first ?? "").split(" ");
    const handler = this.handlers.get(token ?? "");
    if (!handler || (name !== "pre-receive" && name !== "post-receive")) return { messages: ["GitLab: Failed to authorize your Git request"], ok: false };
    const request: HookRequest = { hook: name, updates: [], quarantinePath: null, pushOptions: [] };
    for (const line of lines) {
      if (line.startsWith("quarantine ")) request.quarantinePath = line.slice("quarantine ".length) || null;
      else if (line.startsWith("option ")) request.pushOptions.push(line.slice("option ".length));
      else if (line.startsWith("ref ")) {
        const [oldSha, newSha, ref] = line.slice(4).split(" ");
        if (oldSha && newSha && ref) request.updates.push({ oldSha, newSha, ref });
      }
    }
    return handler(request);
  }
}
