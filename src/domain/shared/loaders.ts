// The per-request loader registry (ctx.loaders) and the loaders every resource uses (users and
// namespaces by id). A page of rows loads what hangs off them once: one query per page, not per row.
import DataLoader from "dataloader";
import type { Namespace, User } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import type { Caches } from "./caches.js";
import type { Services } from "./context.js";
import type { Tx } from "./events.js";

/** Makes one loader (or per-request cache) from the services; the registry calls it once per request. */
export type LoaderFactory<L> = (services: Services) => L;

/**
 * The per-request loader registry (ctx.loaders): each resource defines its loaders as factories
 * beside its batch functions, and a request makes each one on first use, so a page of rows loads
 * what hangs off them once, and nothing here imports the resources.
 */
export class Loaders {
  readonly #made = new Map<LoaderFactory<unknown>, unknown>();

  constructor(private readonly services: Services) {}

  get<L>(factory: LoaderFactory<L>): L {
    if (!this.#made.has(factory)) this.#made.set(factory, factory(this.services));
    return this.#made.get(factory) as L;
  }
}

/** Users by id: from the server's user cache, the rest in one query (then cached). */
export async function usersById(db: Db | Tx, cache: Caches["users"], ids: readonly number[]): Promise<(User | null)[]> {
  const found = new Map<number, User>();
  for (const id of ids) {
    const user = cache.get(id);
    if (user) found.set(id, user);
  }
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const stamp = cache.stamp();
    for (const row of await db.user.findMany({ where: { id: { in: missing } } })) {
      cache.keep(row.id, row, stamp);
      found.set(row.id, row);
    }
  }
  return ids.map((id) => found.get(id) ?? null);
}

export const createLoaders = (services: Services) => new Loaders(services);

/** Namespaces by id. */
export const namespaceLoader: LoaderFactory<DataLoader<number, Namespace | null>> = (services) =>
  new DataLoader(async (ids) => {
    const rows = await services.db.namespace.findMany({ where: { id: { in: [...ids] } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  });

/** Users by id, through the server's user cache. */
export const userLoader: LoaderFactory<DataLoader<number, User | null>> = (services) =>
  new DataLoader((ids) => usersById(services.db, services.caches.users, ids));
