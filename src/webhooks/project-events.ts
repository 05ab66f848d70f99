// Project events of group hooks (`project_events`): a project created in or removed from a group
// is a project_create / project_destroy for the hooks of its group and the ancestors (EE
// Projects::DestroyService#execute_hooks with Gitlab::HookData::ProjectBuilder; GitLab's webhook
// events page: "a project is created or deleted in a group"). Projects in personal namespaces
// have no group hooks to tell.
import type { User } from "../generated/prisma/client.js";
import { AccessLevel, ancestorIds } from "../domain/shared/access-levels.js";
import type { DomainContext } from "../domain/shared/context.js";
import { subscribe, type Tx } from "../domain/shared/events.js";
import { enqueueHookDeliveries } from "./outbox.js";
import { webhookEmail, xmlschema, type ProjectWithNamespace } from "./payloads/common.js";
import { projectFullPath } from "../domain/shared/web-urls.js";

subscribe("project", async (tx, event, ctx) => {
  const { project } = event;
  if (project.namespace.kind !== "group") return;
  const payload = () => buildProjectPayload(tx, project, `project_${event.action}`);
  await enqueueHookDeliveries(tx, ctx as DomainContext, { groupId: project.namespace.id, trigger: "project_hooks", payload });
});

/** ProjectBuilder#build: the event, timestamps, the project and its owners (a group's: the group). */
export async function buildProjectPayload(tx: Tx, project: ProjectWithNamespace, eventName: string) {
  const group = project.namespace;
  const owners = await groupOwners(tx, ancestorIds(group));
  return {
    event_name: eventName,
    created_at: xmlschema(project.createdAt),
    updated_at: xmlschema(project.updatedAt),
    name: project.name,
    path: project.path,
    path_with_namespace: projectFullPath(project),
    project_id: project.id,
    // a group project's deprecated owner is its group, which has no e-mail
    owner_name: group.name,
    owner_email: "",
    owners: owners.map((user) => ({ name: user.name, email: webhookEmail(user) })),
    project_visibility: project.visibility,
  };
}

/** Group#all_owner_members: the Owners of the group and of its ancestors. */
async function groupOwners(tx: Tx, groupIds: number[]): Promise<User[]> {
  const rows = await tx.groupMember.findMany({
    where: { groupId: { in: groupIds }, accessLevel: AccessLevel.owner },
    include: { user: true },
    orderBy: { id: "asc" },
  });
  const seen = new Set<number>();
  return rows.flatMap((row) => (seen.has(row.userId) ? [] : (seen.add(row.userId), [row.user])));
}
