// Audit events (GitLab's audit event types), recorded from the domain events inside the
// transaction of the change: members added, changed and removed; personal, project and group
// access tokens created and revoked; project and group webhooks created and deleted; OAuth
// applications created, renewed and deleted; protected branches; approval rules and settings;
// project and group visibility; users blocked, unblocked, banned, unbanned and deleted by an
// administrator; sign-ins with a password and failed ones. Details carry names and ids, never a secret.
import { ROLE_NAMES } from "../shared/access-levels.js";
import { subscribe } from "../shared/events.js";
import { groupEntity, INSTANCE_SCOPE, projectEntity, recordAuditEvent, userEntity } from "./writes.js";

const VISIBILITY_NAMES: Record<string, string> = { private: "Private", internal: "Internal", public: "Public" };
const roleName = (level: number) => ROLE_NAMES[level] ?? String(level);
const isoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

// AuditEventService#for_member: the member's user is the target; add, change or remove "user_access"
subscribe("member", async (tx, event, ctx) => {
  const entity = event.source === "project" ? await projectEntity(tx, event.sourceId) : await groupEntity(tx, event.sourceId);
  const user = await tx.user.findUnique({ where: { id: event.userId }, select: { name: true } });
  const target = { type: "User", id: event.userId, details: user?.name ?? String(event.userId) };
  const authorId = event.actorId ?? -1;
  const expiry = isoDate(event.expiresAt);
  if (event.action === "create") {
    await recordAuditEvent(tx, ctx, {
      eventName: "member_created", authorId, entity, target,
      legacy: { add: "user_access", as: roleName(event.accessLevel), member_id: event.userId, expiry_from: null, expiry_to: expiry },
    });
  } else if (event.action === "update") {
    const previous = event.previous ?? { accessLevel: event.accessLevel, expiresAt: event.expiresAt };
    await recordAuditEvent(tx, ctx, {
      eventName: "member_updated", authorId, entity, target,
      legacy: {
        change: "access_level", from: roleName(previous.accessLevel), to: roleName(event.accessLevel),
        expiry_from: isoDate(previous.expiresAt), expiry_to: expiry, as: roleName(event.accessLevel), member_id: event.userId,
      },
    });
  } else {
    await recordAuditEvent(tx, ctx, {
      eventName: "member_destroyed", authorId, entity, target,
      legacy: { remove: "user_access", member_id: event.userId },
    });
  }
});

// PersonalAccessTokens::CreateService / RevokeService; ResourceAccessTokens::CreateService / RevokeService
subscribe("access_token", async (tx, event, ctx) => {
  const { token } = event;
  if (event.resource === null) {
    const owner = await tx.user.findUniqueOrThrow({ where: { id: token.userId }, select: { id: true, username: true } });
    const created = event.action === "create";
    await recordAuditEvent(tx, ctx, {
      eventName: created ? "personal_access_token_created" : "personal_access_token_revoked",
      authorId: event.actorId, entity: userEntity(owner),
      target: { type: "PersonalAccessToken", id: token.id, details: token.name },
      message: `${created ? "Created" : "Revoked"} personal access token with id ${token.id}`,
    });
    return;
  }
  const { type, id } = event.resource;
  const entity = type === "project" ? await projectEntity(tx, id) : await groupEntity(tx, id);
  const level = await (type === "project"
    ? tx.projectMember.findFirst({ where: { projectId: id, userId: token.userId }, select: { accessLevel: true } })
    : tx.groupMember.findFirst({ where: { groupId: id, userId: token.userId }, select: { accessLevel: true } }));
  const scopes = `[${token.scopes.split(" ").filter(Boolean).map((s) => JSON.stringify(s)).join(", ")}]`;
  await recordAuditEvent(tx, ctx, {
    eventName: event.action === "create" ? `${type}_access_token_created` : `${type}_access_token_deleted`,
    authorId: event.actorId, entity,
    target: { type: "PersonalAccessToken", id: token.id, details: token.name },
    message: event.action === "create"
      ? `Created ${type} access token with token_id: ${token.id} with scopes: ${scopes} and ${roleName(level?.accessLevel ?? 0)} access level.`
      : `Revoked ${type} access token with token_id: ${token.id}`,
  });
});

// WebHooks::CreateService / DestroyService (GitLab records no event for a changed hook); the URL may carry credentials: never shown
subscribe("web_hook", async (tx, event, ctx) => {
  if (event.action === "update") return;
  const { hook } = event;
  const [entity, kind] = hook.projectId !== null
    ? [await projectEntity(tx, hook.projectId), "ProjectHook"]
    : [await groupEntity(tx, hook.groupId!), "GroupHook"];
  const created = event.action === "create";
  await recordAuditEvent(tx, ctx, {
    eventName: created ? "webhook_created" : "webhook_destroyed",
    authorId: event.actorId, entity,
    target: { type: kind, id: hook.id, details: String(hook.id) },
    message: `${created ? "Created" : "Deleted"} ${kind === "ProjectHook" ? "project" : "group"} hook`,
  });
});

// Instance OAuth applications (the administrators' Applications API)
subscribe("application", async (tx, event, ctx) => {
  const { application } = event;
  const [eventName, message] = {
    create: ["oauth_application_created", "OAuth application added"],
    renew_secret: ["oauth_application_updated", "OAuth application secret renewed"],
    destroy: ["oauth_application_deleted", "OAuth application removed"],
  }[event.action];
  await recordAuditEvent(tx, ctx, {
    eventName: eventName!, authorId: event.actorId, entity: INSTANCE_SCOPE,
    target: { type: "Doorkeeper::Application", id: application.id, details: application.name }, message: message!,
  });
});

// ProtectedBranches::CreateService / UpdateService / DestroyService
subscribe("protected_branch", async (tx, event, ctx) => {
  const [eventName, message] = {
    create: ["protected_branch_created", "Added protected branch"],
    update: ["protected_branch_updated", "Changed protected branch"],
    destroy: ["protected_branch_removed", "Unprotected branch"],
  }[event.action];
  await recordAuditEvent(tx, ctx, {
    eventName: eventName!, authorId: event.actorId, entity: await projectEntity(tx, event.projectId),
    target: { type: "ProtectedBranch", id: null, details: event.name }, message: message!,
  });
});

// ProjectChangesAuditor / GroupChangesAuditor: audit_changes(:visibility_level, as: "visibility")
subscribe("visibility", async (tx, event, ctx) => {
  const entity = event.source === "project" ? await projectEntity(tx, event.sourceId) : await groupEntity(tx, event.sourceId);
  await recordAuditEvent(tx, ctx, {
    eventName: `${event.source}_visibility_level_updated`, authorId: event.actorId, entity,
    target: { type: event.source === "project" ? "Project" : "Group", id: event.sourceId, details: entity.path },
    legacy: { change: "visibility", from: VISIBILITY_NAMES[event.previous] ?? event.previous, to: VISIBILITY_NAMES[event.current] ?? event.current },
  });
});

// Users::BlockService, UnblockService, BanService, UnbanService, DestroyService (an administrator's)
subscribe("user_state", async (tx, event, ctx) => {
  const [eventName, message] = {
    block: ["user_blocked", "Blocked user"],
    unblock: ["user_unblocked", "Unblocked user"],
    ban: ["user_banned", "Banned user"],
    unban: ["user_unbanned", "Unbanned user"],
    destroy: ["user_destroyed", `User ${event.user.username} scheduled for deletion`],
  }[event.action];
  await recordAuditEvent(tx, ctx, {
    eventName: eventName!, authorId: event.actorId, entity: userEntity(event.user),
    target: { type: "User", id: event.user.id, details: event.user.username }, message: message!,
  });
});

// AuditEventService#for_authentication: the user signed in (with: "standard" for a password)
subscribe("sign_in", async (tx, event, ctx) => {
  await recordAuditEvent(tx, ctx, {
    eventName: "authenticated_with_password", authorId: event.user.id, entity: userEntity(event.user),
    target: { type: "User", id: event.user.id, details: event.user.username },
    legacy: { with: event.provider },
  });
});

// AuditEventService#for_failed_login(...).unauth_security_event: no author (-1), no entity (User -1), the login tried as the author's name
subscribe("sign_in_failed", async (tx, event, ctx) => {
  await recordAuditEvent(tx, ctx, {
    eventName: `login_failed_with_${event.provider}_authentication`, authorId: -1, authorName: event.login,
    entity: { type: "User", id: -1, path: "" },
    target: { type: "User", id: null, details: event.login },
    legacy: { failed_login: event.provider.toUpperCase() },
  });
});

// A project's approval rules (ApprovalRules::CreateService, UpdateService, ProjectRuleDestroyService)
// and its approval settings (ProjectChangesAuditor); GitLab audits neither a group's rules nor a
// merge request's own rules.
const APPROVAL_SETTING_NAMES: Record<string, string> = {
  merge_requests_author_approval: "prevent merge request approval from authors",
  merge_requests_disable_committers_approval: "prevent merge request approval from committers",
  reset_approvals_on_push: "require new approvals when new commits are added to an MR",
  disable_overriding_approvers_per_merge_request: "prevent users from modifying MR approval rules in merge requests",
  require_password_to_approve: "require user password for approvals",
};
subscribe("approval_config", async (tx, event, ctx) => {
  const entity = await projectEntity(tx, event.projectId);
  if (event.action === "settings_update") {
    for (const [column, { previous, current }] of Object.entries(event.changes ?? {})) {
      // the author approval setting is shown as "prevent ...": its values inverted
      const [from, to] = column === "merge_requests_author_approval" ? [!previous, !current] : [previous, current];
      await recordAuditEvent(tx, ctx, {
        eventName: `project_${column}_updated`, authorId: event.actorId, entity,
        target: { type: "Project", id: event.projectId, details: entity.path },
        legacy: { change: APPROVAL_SETTING_NAMES[column] ?? column, from, to },
      });
    }
    return;
  }
  const rule = event.rule!;
  const target = { type: "ApprovalProjectRule", id: rule.id, details: rule.name };
  const base = { authorId: event.actorId, entity, target };
  if (event.action === "rule_create") {
    await recordAuditEvent(tx, ctx, {
      ...base, eventName: "approval_rule_created", message: `Added approval rule with number of required approvals of ${rule.approvalsRequired}`,
    });
  } else if (event.action === "rule_destroy") {
    await recordAuditEvent(tx, ctx, { ...base, eventName: "approval_rule_deleted", message: "Deleted approval rule" });
  } else if (rule.previousApprovalsRequired !== rule.approvalsRequired) {
    // audit_changes(:approvals_required, as: "number of required approvals")
    await recordAuditEvent(tx, ctx, {
      ...base, eventName: "update_approval_rules",
      legacy: { change: "number of required approvals", from: rule.previousApprovalsRequired, to: rule.approvalsRequired },
    });
  }
});
