// Groups (nested through parent_id): one group and its web URL. Lists: lists.ts; create and
// update: writes.ts; transfer: transfer.ts.
import type { Namespace } from "../../generated/prisma/client.js";
import { findGroup } from "../shared/parents.js";
import { type DomainContext } from "../shared/context.js";

export function groupWebUrl(ctx: DomainContext, group: Pick<Namespace, "fullPath">) {
  return `${ctx.config.publicUrl}/groups/${group.fullPath}`;
}

export async function getGroup(ctx: DomainContext, id: string): Promise<Namespace> {
  return (await findGroup(ctx, id)).group;
}
