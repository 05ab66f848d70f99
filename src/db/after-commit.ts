// Work that must wait until a write is durable (waking delivery workers, handing out live events):
// each hook runs with the transaction client after every interactive transaction of `db` that
// committed, never after one that rolled back. One wrapper per client, whatever the number of hooks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TransactionClient = { $transaction: (...args: any[]) => Promise<unknown> };

const hooksOf = new WeakMap<object, ((tx: object) => void)[]>();

/** Calls `hook(tx)` once each interactive transaction of `db` has committed. */
export function afterCommit(db: TransactionClient, hook: (tx: object) => void): void {
  const hooks = hooksOf.get(db);
  if (hooks) return void hooks.push(hook);
  const registered = [hook];
  hooksOf.set(db, registered);
  const transaction = db.$transaction.bind(db);
  db.$transaction = async (run: unknown, ...rest: unknown[]) => {
    if (typeof run !== "function") return transaction(run, ...rest);
    let used: object | undefined;
    const result = await transaction((tx: object) => {
      used = tx;
      return run(tx);
    }, ...rest);
    if (used) for (const each of registered) each(used);
    return result;
  };
}
