// A deleted project's repository goes once the deletion has committed (a deletion that rolls back
// keeps it): the project destroy events of a transaction are remembered here, and the server
// removes their repositories after the commit (services.ts).
import { subscribe, type Tx } from "../shared/events.js";

const removedIn = new WeakMap<object, number[]>();

subscribe("project", async (tx, event) => {
  if (event.action !== "destroy") return;
  removedIn.set(tx, [...(removedIn.get(tx) ?? []), event.project.id]);
});

/** The projects whose repositories the committed transaction removed (each handed out once). */
export function takeRemovedRepositories(tx: object | Tx): number[] {
  const ids = removedIn.get(tx) ?? [];
  removedIn.delete(tx);
  return ids;
}
