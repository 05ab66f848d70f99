// Projects: one project by id or path. Lists: lists.ts; create and update: writes.ts; transfer
// to another namespace: transfer.ts.
import { findProject } from "../shared/parents.js";
import { type DomainContext } from "../shared/context.js";
import type { ProjectWithNamespace } from "./lists.js";

export async function getProject(ctx: DomainContext, id: string): Promise<ProjectWithNamespace> {
  return (await findProject(ctx, id)).project;
}
