// Approvals reacting to other areas' events:
// - a push that advances a branch resets the approvals of the open and closed merge requests it
//   is the source of (reset_approvals_on_push), or removes only the approvals of code owners whose
//   files the new commits touch (selective_code_owner_removals, see code-owners.ts);
// - a new merge request receives copies of the project's report approver rules, as GitLab's
//   SyncReportApproverApprovalRules does when a merge request is created.
import type { MergeRequest } from "../../../generated/prisma/client.js";
import type { DomainContext } from "../../shared/context.js";
import { BLANK_SHA, subscribe, type PushEvent, type Tx } from "../../shared/events.js";
import { clearApprovals, publishApproval, removalAction, setReviewerState } from "./writes.js";
import { codeOwnerPatternMatches } from "./code-owners.js";
import { findRules } from "./rules.js";
import { loadSettings } from "./settings.js";
import { computeApprovalState } from "./state.js";

subscribe("push", async (tx, event, ctx) => {
  if (event.after === BLANK_SHA || event.before === event.after) return;
  const settings = await loadSettings({ db: tx }, event.projectId);
  if (!settings.resetApprovalsOnPush && !settings.selectiveCodeOwnerRemovals) return;
  const mergeRequests = await tx.mergeRequest.findMany({
    where: { projectId: event.projectId, sourceBranch: event.branch, state: { in: ["opened", "closed"] } },
  });
  for (const mergeRequest of mergeRequests) {
    if (settings.resetApprovalsOnPush) await clearApprovals(tx, ctx, mergeRequest, event.actorId, "push");
    else await removeCodeOwnerApprovals(tx, ctx, mergeRequest, event);
  }
});

async function removeCodeOwnerApprovals(tx: Tx, ctx: DomainContext, mergeRequest: MergeRequest, event: PushEvent): Promise<void> {
  const reader = { db: tx, now: ctx.now, git: ctx.git };
  const before = await computeApprovalState(reader, mergeRequest);
  const rules = before.rules.filter((r) => r.rule.row.ruleType === "code_owner" && r.approvedApprovers.length > 0);
  if (!rules.length) return;
  const paths = await event.changedPaths();
  const touched = rules.filter((r) => paths.some((path) => codeOwnerPatternMatches(r.rule.row.name, path)));
  const userIds = [...new Set(touched.flatMap((r) => r.approvedApprovers.map((u) => u.id)))];
  if (!userIds.length) return;
  await tx.approval.deleteMany({ where: { mergeRequestId: mergeRequest.id, userId: { in: userIds } } });
  await setReviewerState(tx, mergeRequest, userIds, "unapproved");
  const after = await computeApprovalState(reader, mergeRequest);
  await publishApproval(tx, ctx, mergeRequest, { action: removalAction(before, after), userIds, cause: "push", actorId: event.actorId });
}

subscribe("merge_request", async (tx, event, ctx) => {
  if (event.action !== "open") return;
  const reportRules = (await findRules({ db: tx, now: ctx.now, git: ctx.git }, "project", event.projectId)).filter((r) => r.row.ruleType === "report_approver");
  for (const rule of reportRules) {
    await tx.approvalRule.create({
      data: {
        kind: "merge_request",
        containerId: event.mergeRequestId,
        projectId: event.projectId,
        name: rule.row.name,
        ruleType: "report_approver",
        reportType: rule.row.reportType,
        approvalsRequired: rule.row.approvalsRequired,
        sourceRuleId: rule.row.id,
        users: { create: rule.users.map((u) => ({ userId: u.id })) },
        groups: { create: rule.groups.map((g) => ({ groupId: g.id })) },
      },
    });
  }
});
