// Groups (nested through parent_id): a group's web URL. One group: findGroup (shared/parents.ts);
// lists: lists.ts; create and update: writes.ts; transfer: transfer.ts.
import type { Namespace } from "../../generated/prisma/client.js";
import { type DomainContext } from "../shared/context.js";

export function groupWebUrl(ctx: DomainContext, group: Pick<Namespace, "fullPath">) {
  return `${ctx.config.publicUrl}/groups/${group.fullPath}`;
}
