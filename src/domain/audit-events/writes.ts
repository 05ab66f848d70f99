// Recording an audit event (GitLab's Gitlab::Audit::Auditor and AuditEvents::BuildService), inside
// the transaction of the change it is about. `details` is GitLab's hash: the legacy keys of the
// action first (add/remove/change/from/to/as...), then who acted, the target, the custom message,
// the event's name and the entity's path. Never a secret: callers pass names and ids only.
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";

/** What an audit event belongs to: GitLab's entity_type (Gitlab::Audit::InstanceScope for the instance). */
export type AuditEntityType = "User" | "Group" | "Project" | "Gitlab::Audit::InstanceScope";
export const AUDIT_ENTITY_TYPES = ["User", "Group", "Project", "Gitlab::Audit::InstanceScope"] as const;
/** GitLab's Gitlab::Audit::InstanceScope has id 1 and the path "gitlab_instance". */
export const INSTANCE_SCOPE = { type: "Gitlab::Audit::InstanceScope" as const, id: 1, path: "gitlab_instance" };

export interface NewAuditEvent {
  eventName: string;
  /** who acted; -1 when nobody known (GitLab's unauthenticated author) */
  authorId: number;
  entity: { type: AuditEntityType; id: number; path: string };
  target: { type: string; id: number | null; details: string };
  /** GitLab's custom_message (absent for the legacy add/remove/change events) */
  message?: string;
  /** the legacy keys, shown before the common ones */
  legacy?: Record<string, unknown>;
  /** the name shown for an unauthenticated author (GitLab's failed sign-in shows the login tried) */
  authorName?: string;
}

export async function recordAuditEvent(tx: Tx, ctx: DomainContext, event: NewAuditEvent): Promise<void> {
  const author = event.authorName !== undefined ? { name: event.authorName, email: null } : await authorOf(tx, ctx, event.authorId);
  const details: Record<string, unknown> = {
    ...event.legacy,
    author_name: author.name,
    author_class: "User",
    target_id: event.target.id,
    target_type: event.target.type,
    target_details: event.target.details,
    ...(event.message !== undefined ? { custom_message: event.message } : {}),
    event_name: event.eventName,
    author_email: author.email,
    // the request's client address (the socket's remote address: Forgeline trusts no proxy header)
    ip_address: ctx.client?.ipAddress ?? null,
    entity_path: event.entity.path,
  };
  if (details.author_email === null) delete details.author_email;
  if (details.ip_address === null) delete details.ip_address;
  await tx.auditEvent.create({
    data: {
      authorId: event.authorId,
      entityType: event.entity.type,
      entityId: event.entity.id,
      eventName: event.eventName,
      targetType: event.target.type,
      targetId: event.target.id,
      details: JSON.stringify(details),
      createdAt: ctx.now(),
    },
    select: { id: true },
  });
}

async function authorOf(tx: Tx, ctx: DomainContext, authorId: number): Promise<{ name: string; email: string | null }> {
  const actor = ctx.actor?.user;
  if (actor && actor.id === authorId) return { name: actor.name, email: actor.email };
  const user = authorId > 0 ? await tx.user.findUnique({ where: { id: authorId }, select: { name: true, email: true } }) : null;
  return user ?? { name: "An unauthenticated user", email: null };
}

/** The entity of a project or a group, with its full path (one read). */
export async function projectEntity(tx: Tx, projectId: number) {
  const project = await tx.project.findUnique({ where: { id: projectId }, select: { path: true, namespace: { select: { fullPath: true } } } });
  return { type: "Project" as const, id: projectId, path: project ? `${project.namespace.fullPath}/${project.path}` : "" };
}

export async function groupEntity(tx: Tx, groupId: number) {
  const group = await tx.namespace.findUnique({ where: { id: groupId }, select: { fullPath: true } });
  return { type: "Group" as const, id: groupId, path: group?.fullPath ?? "" };
}

export const userEntity = (user: { id: number; username: string }) => ({ type: "User" as const, id: user.id, path: user.username });
