// createIssue and updateIssue: one `input`, a payload `{ issue, errors }` (issues/writes.ts rules);
// issueDelete, Forgeline's graph form of REST DELETE /projects/:id/issues/:iid (issues/destroy.ts).
import { deleteIssue } from "../../domain/issues/destroy.js";
import { findIssue } from "../../domain/issues/queries.js";
import { createIssue, requireIssueChanges, updateIssue, type UpdateIssueInput } from "../../domain/issues/writes.js";
import { findProjectToWrite } from "../../domain/shared/parents.js";
import { builder } from "../shared/builder.js";
import { IssueRef } from "./types.js";
import { issuableInputFields, issuablePathOf, projectPathOf, userIdsOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";

const IssueStateEventEnum = builder.enumType("IssueStateEvent", {
  values: { CLOSE: { value: "close" }, REOPEN: { value: "reopen" } } as const,
});

const issue = { field: "issue", type: IssueRef };

payloadMutation("createIssue", {
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    title: t.string({ required: true }),
    description: t.string(),
    confidential: t.boolean(),
    locked: t.boolean({ description: "The discussion is locked (members only may comment)." }),
    dueDate: t.string({ description: "YYYY-MM-DD" }),
    labels: t.stringList({ description: "Label names." }),
    assigneeIds: t.idList({ description: "Global ids of users." }),
  }),
  write: async (input, ctx) => {
    const path = projectPathOf(input.projectPath);
    return createIssue(ctx, await findProjectToWrite(ctx, path), {
      title: input.title,
      description: input.description,
      confidential: input.confidential,
      discussion_locked: input.locked,
      due_date: input.dueDate,
      labels: input.labels,
      assignee_ids: userIdsOf(input.assigneeIds),
    });
  },
  returns: issue,
});

payloadMutation("updateIssue", {
  inputFields: (t) => ({
    ...issuableInputFields(t),
    title: t.string(),
    description: t.string(),
    confidential: t.boolean(),
    locked: t.boolean(),
    dueDate: t.string({ description: "YYYY-MM-DD; null clears it." }),
    stateEvent: t.field({ type: IssueStateEventEnum }),
    labels: t.stringList({ description: "Label names replacing the current ones." }),
    addLabels: t.stringList({ description: "Label names to add." }),
    removeLabels: t.stringList({ description: "Label names to remove." }),
    assigneeIds: t.idList({ description: "Global ids of users replacing the current assignees." }),
  }),
  write: async (input, ctx) => {
    const [projectPath, iid] = issuablePathOf(input);
    const changes: UpdateIssueInput = {
      ...defined({
        title: input.title,
        description: input.description,
        confidential: input.confidential,
        discussion_locked: input.locked,
        labels: input.labels,
        add_labels: input.addLabels,
        remove_labels: input.removeLabels,
        assignee_ids: userIdsOf(input.assigneeIds),
        state_event: input.stateEvent,
      }),
      // an explicit null clears the due date
      ...("dueDate" in input ? { due_date: input.dueDate ?? "" } : {}),
    };
    requireIssueChanges(ctx, changes);
    return updateIssue(ctx, await findIssue(ctx, projectPath, iid, "update"), changes);
  },
  returns: issue,
});

payloadMutation("issueDelete", {
  inputFields: issuableInputFields,
  write: async (input, ctx) => {
    const [projectPath, iid] = issuablePathOf(input);
    return deleteIssue(ctx, await findIssue(ctx, projectPath, iid, "destroy"));
  },
});

/** Only the fields given (the domain's "at least one of" counts what is present). */
function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) as Partial<T>;
}
