// PostgreSQL LISTEN for the processes that wait on NOTIFY: webhook workers (src/webhooks/wake.ts)
// and the public graph's live events (src/domain/live-events/).
import type pg from "pg";

const RECONNECT_DELAY_MS = { first: 500, max: 30_000 };

export interface ChannelListener {
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` on a connection of its own, calling `onWake` for each notification (with its
 * payload) and once after every (re)connection, without one (notifications sent while it was away
 * are lost); reconnects after an error with a growing delay.
 */
export function listenOnChannel(
  databaseUrl: string,
  channel: string,
  onWake: (payload?: string) => void,
  log: (message: string, error?: unknown) => void,
): ChannelListener {
  let client: pg.Client | undefined;
  let closed = false;
  let delay = RECONNECT_DELAY_MS.first;
  let retry: NodeJS.Timeout | undefined;

  const reconnect = (error: unknown) => {
    if (closed || retry) return;
    log(`${channel} connection lost; reconnecting`, error);
    void client?.end().catch(() => {});
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, RECONNECT_DELAY_MS.max);
  };

  async function connect() {
    const { default: driver } = await import("pg");
    const next = new driver.Client({ connectionString: databaseUrl });
    client = next;
    next.on("notification", (message) => onWake(message.payload));
    next.on("error", reconnect);
    next.on("end", () => client === next && reconnect(new Error("connection ended")));
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      if (closed) return void (await next.end());
      delay = RECONNECT_DELAY_MS.first;
      onWake();
    } catch (error) {
      if (client === next) reconnect(error);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
