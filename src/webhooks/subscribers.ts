// The webhook fan-out subscribed to the domain events: each builds GitLab's payload from the rows
// inside the event's transaction, only once some hook hears the event (a payload function), and
// writes the outbox rows there (outbox.ts).
import type { User } from "../generated/prisma/client.js";
import { projectByIdInTransaction } from "../domain/shared/parents.js";
import type { DomainContext } from "../domain/shared/context.js";
import { subscribe, BLANK_SHA, type Tx } from "../domain/shared/events.js";
import { enqueueHookDeliveries } from "./outbox.js";
import { creationChanges, preparationChanges } from "./payloads/changes.js";
import { loadProject } from "./payloads/common.js";
import { buildMemberPayload, buildSubgroupPayload } from "./payloads/membership.js";
import { buildMilestonePayload } from "./payloads/milestone.js";
import { buildPushPayload, isProtectedBranch, MAX_PUSH_COMMITS } from "./payloads/push.js";
import { buildEmojiPayload, buildIssuePayload, buildMergeRequestPayload, buildNotePayload } from "./payloads/work-items.js";

const userOf = (tx: Tx, id: number | null): Promise<User | null> =>
  id === null ? Promise.resolve(null) : tx.user.findUnique({ where: { id } });

/**
 * The event's project and acting user: rows that exist while the event's transaction runs. The
 * project comes from the server's project cache and the user is usually the request's actor.
 */
async function projectAndActor(tx: Tx, ctx: DomainContext, projectId: number, actorId: number) {
  const [project, user] = await Promise.all([
    projectByIdInTransaction(ctx.caches, tx, projectId),
    ctx.actor?.user.id === actorId ? ctx.actor.user : tx.user.findUniqueOrThrow({ where: { id: actorId } }),
  ]);
  return { project: project!, user };
}

subscribe("push", async (tx, event, ctx) => {
  if (!event.withHooks) return;
  const payload = async () => {
    const project = (await loadProject(tx, event.projectId))!;
    const pushed = await event.pushed();
    return buildPushPayload(ctx, {
      project,
      user: await userOf(tx, event.actorId),
      ref: `refs/heads/${event.branch}`,
      before: event.before,
      after: event.after,
      commits: event.after === BLANK_SHA ? [] : pushed.commits.slice(-MAX_PUSH_COMMITS),
      totalCommits: pushed.total,
      refProtected: await isProtectedBranch(tx, project.id, event.branch),
    });
  };
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger: "push_hooks", payload, branch: event.branch });
});

// A push to the source branch of open merge requests is an "update" of each (GitLab's
// MergeRequests::Refresh::WebHooksService), with the branch's old head as `oldrev`.
subscribe("push", async (tx, event, ctx) => {
  const user = await userOf(tx, event.actorId);
  if (!user) return;
  const mergeRequests = await tx.mergeRequest.findMany({
    where: { projectId: event.projectId, sourceBranch: event.branch, state: "opened" },
    include: { assignees: true, reviewers: true },
    orderBy: { id: "asc" },
  });
  for (const mr of mergeRequests) {
    const payload = async () => {
      const project = (await loadProject(tx, event.projectId))!;
      const oldrev = event.before === BLANK_SHA ? undefined : event.before;
      return buildMergeRequestPayload(ctx, tx, project, mr, user, "update", {}, oldrev);
    };
    await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger: "merge_request_hooks", payload });
  }
});

// GitLab sends member hooks for group memberships only (GroupMember#execute_hooks_for).
subscribe("member", async (tx, event, ctx) => {
  if (event.source !== "group") return;
  const payload = async () => {
    const [group, user] = await Promise.all([tx.namespace.findUniqueOrThrow({ where: { id: event.sourceId } }), tx.user.findUniqueOrThrow({ where: { id: event.userId } })]);
    const updatedAt = event.action === "create" ? event.createdAt : ctx.now();
    return buildMemberPayload(event.action, group, user, { ...event, updatedAt });
  };
  await enqueueHookDeliveries(tx, ctx, { groupId: event.sourceId, trigger: "member_hooks", payload });
});

// The parent group's hooks (and its ancestors') hear about a subgroup.
subscribe("subgroup", async (tx, event, ctx) => {
  const payload = buildSubgroupPayload(event.action, event.subgroup, event.parent);
  await enqueueHookDeliveries(tx, ctx, { groupId: event.parent.id, trigger: "subgroup_hooks", payload });
});

subscribe("issue", async (tx, event, ctx) => {
  const issue = event.issue;
  const payload = async () => {
    const { project, user } = await projectAndActor(tx, ctx, event.projectId, event.actorId);
    const changes = event.action === "open" ? { ...creationChanges(issue), ...event.changes } : event.changes;
    return buildIssuePayload(ctx, tx, project, issue, user, event.action, changes);
  };
  const trigger = issue.confidential ? "confidential_issue_hooks" : "issue_hooks";
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger, payload });
});

subscribe("merge_request", async (tx, event, ctx) => {
  const payload = async () => {
    const { project, user } = await projectAndActor(tx, ctx, event.projectId, event.actorId);
    const mr = await tx.mergeRequest.findUniqueOrThrow({ where: { id: event.mergeRequestId }, include: { assignees: true, reviewers: true } });
    const changes = event.action === "open" ? { ...preparationChanges(mr), ...event.changes } : event.changes;
    return buildMergeRequestPayload(ctx, tx, project, mr, user, event.action, changes);
  };
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger: "merge_request_hooks", payload });
});

// The trigger depends on the noteable's confidentiality, so the payload is built first.
subscribe("note", async (tx, event, ctx) => {
  const note = await tx.note.findUnique({ where: { id: event.noteId } });
  if (!note) return;
  const { project, user } = await projectAndActor(tx, ctx, event.projectId, event.actorId);
  const payload = await buildNotePayload(ctx, tx, project, note, user, event.action);
  const trigger = payload.event_type === "confidential_note" ? "confidential_note_hooks" : "note_hooks";
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger, payload });
});

subscribe("emoji", async (tx, event, ctx) => {
  const payload = async () => {
    const { project, user } = await projectAndActor(tx, ctx, event.projectId, event.actorId);
    const award = await tx.awardEmoji.findUnique({ where: { id: event.awardEmojiId } });
    const now = ctx.now();
    return buildEmojiPayload(ctx, tx, project, user, event.action, {
      id: event.awardEmojiId, name: event.name, userId: event.userId, awardableType: event.awardableType, awardableId: event.awardableId,
      createdAt: award?.createdAt ?? now, updatedAt: award?.updatedAt ?? now,
    });
  };
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger: "emoji_hooks", payload });
});

// Approving and unapproving are merge request hooks with those actions; a reset sends none.
subscribe("approval", async (tx, event, ctx) => {
  if (event.action === "reset") return;
  const payload = async () => {
    const { project, user } = await projectAndActor(tx, ctx, event.projectId, event.actorId ?? event.userIds[0]!);
    const mr = await tx.mergeRequest.findUniqueOrThrow({ where: { id: event.mergeRequestId }, include: { assignees: true, reviewers: true } });
    return buildMergeRequestPayload(ctx, tx, project, mr, user, event.action);
  };
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger: "merge_request_hooks", payload });
});

// A project milestone's hooks (Milestones::BaseService#execute_hooks); group milestones send none.
subscribe("milestone", async (tx, event, ctx) => {
  const projectId = event.milestone.projectId;
  if (projectId === null) return;
  const payload = async () => buildMilestonePayload(ctx, (await loadProject(tx, projectId))!, event.milestone, event.action);
  await enqueueHookDeliveries(tx, ctx, { projectId, trigger: "milestone_hooks", payload });
});
