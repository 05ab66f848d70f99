// At most `limit` deliveries in flight to one host (scheme, name and port) per worker, the rest
// queued in order: a slow or hanging receiver holds its own slots, never the worker's others.

export interface HostLimiter {
  run<T>(host: string, send: () => Promise<T>): Promise<T>;
  /** deliveries in flight or queued for `host` */
  load(host: string): number;
  readonly limit: number;
}

export function createHostLimiter(limit: number): HostLimiter {
  const running = new Map<string, number>();
  const queued = new Map<string, (() => void)[]>();

  const release = (host: string) => {
    const next = queued.get(host)?.shift();
    if (next) return next(); // the slot passes to the next in line
    const count = (running.get(host) ?? 1) - 1;
    if (count) running.set(host, count);
    else running.delete(host);
    if (!queued.get(host)?.length) queued.delete(host);
  };

  const acquire = (host: string): Promise<void> | void => {
    const count = running.get(host) ?? 0;
    if (count < limit) return void running.set(host, count + 1);
    const line = queued.get(host) ?? [];
    queued.set(host, line);
    return new Promise((resolve) => line.push(resolve));
  };

  return {
    limit,
    async run(host, send) {
      await acquire(host);
      try {
        return await send();
      } finally {
        release(host);
      }
    },
    load: (host) => (running.get(host) ?? 0) + (queued.get(host)?.length ?? 0),
  };
}

/** The key deliveries are limited by: the target's origin (`http://host:port`); unparsable: as given. */
export function hostKey(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
