// GitLab's Labels and Group Labels APIs: the ProjectLabel entity (LabelBasic, Label's counts when
// asked and `subscribed`, then `priority` and `is_project_label`), the GroupLabel entity (Label's
// fields), their root fields, and the labels' subscribe/unsubscribe routes (Subscriptions API).
import type { Label } from "../generated/prisma/client.js";
import type { Context } from "../context.js";
import { countIssuesByLabel } from "../domain/issues/label-counts.js";
import { countOpenMergeRequestsByLabel } from "../domain/merge-requests/label-counts.js";
import { listGroupLabels, listProjectLabels } from "../domain/labels/lists.js";
import { labelDescriptionHtml, labelPriorityLoader, labelSubscriptionLoader } from "../domain/labels/presenter.js";
import { findGroupLabel, findGroupLabelToAdminister, findProjectLabel, findProjectLabelToUpdate, requireAdminGroupLabels, requireAdminProjectLabels } from "../domain/labels/queries.js";
import { textColorOf } from "../domain/labels/rules.js";
import {
  checkGroupLabelChanges, checkLabelChanges, createGroupLabel, createProjectLabel, deleteGroupLabel, deleteProjectLabel,
  labelRefOf, subscribeToLabel, unsubscribeFromLabel, updateGroupLabel, updateProjectLabel,
} from "../domain/labels/writes.js";
import { promoteProjectLabel } from "../domain/labels/promote.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

/** The label as a project or group shows it (the project whose priorities apply; the counts when asked). */
type ShownLabel = { label: Label; projectId: number | null; counts?: LabelCounts };
type LabelCounts = { openIssues: number; closedIssues: number; openMergeRequests: number };

const counts = (_ctx: Context, shown: ShownLabel, key: keyof LabelCounts) => shown.counts?.[key] ?? null;

/** A page of labels as shown, with their counts when asked (one statement per count for the page). */
async function shown(ctx: Context, labels: Label[], projectId: number | null, withCounts: boolean | null | undefined): Promise<ShownLabel[]> {
  if (!withCounts) return labels.map((label) => ({ label, projectId }));
  const [issues, mergeRequests] = await Promise.all([countIssuesByLabel(ctx, labels), countOpenMergeRequestsByLabel(ctx, labels)]);
  return labels.map((label) => ({
    label, projectId,
    counts: { openIssues: issues.get(label.id)?.opened ?? 0, closedIssues: issues.get(label.id)?.closed ?? 0, openMergeRequests: mergeRequests.get(label.id) ?? 0 },
  }));
}

/** Entities::LabelBasic as the issuables' `labels` show it with_labels_details, and as a resource label event's `label`. */
export function labelBasic(label: Label) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: labelDescriptionHtml(label.description),
    text_color: textColorOf(label.color),
    remove_on_close: false,
  };
}

type LabelBasic = ReturnType<typeof labelBasic>;

export const LabelBasicEntity = builder.objectRef<LabelBasic>("LabelBasic").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    color: t.exposeString("color"),
    description: t.exposeString("description", { nullable: true }),
    description_html: t.exposeString("description_html"),
    text_color: t.exposeString("text_color"),
    remove_on_close: t.exposeBoolean("remove_on_close"),
  }),
});

/** The JSON Schema of LabelBasic, for the issuables' `labels` (titles, or LabelBasic objects with_labels_details). */
export const LABEL_BASIC_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "integer" }, name: { type: "string" }, color: { type: "string" }, description: { type: ["string", "null"] },
    description_html: { type: "string" }, text_color: { type: "string" }, remove_on_close: { type: "boolean" },
  },
  required: ["id", "name", "color", "description", "description_html", "text_color", "remove_on_close"],
} as const;

/** LabelBasic's and Label's fields, shared by both entities. */
const labelFields = (t: any) => ({
  id: t.int({ resolve: ({ label }: ShownLabel) => label.id }),
  name: t.string({ resolve: ({ label }: ShownLabel) => label.title }),
  color: t.string({ resolve: ({ label }: ShownLabel) => label.color }),
  description: t.string({ nullable: true, resolve: ({ label }: ShownLabel) => label.description }),
  // single-line Markdown is not rendered here: the text, HTML-escaped, in GitLab's paragraph
  description_html: t.string({ nullable: true, resolve: ({ label }: ShownLabel) => labelDescriptionHtml(label.description) }),
  text_color: t.string({ resolve: ({ label }: ShownLabel) => textColorOf(label.color) }),
  remove_on_close: t.boolean({ resolve: () => false }),
  // Entities::Label exposes the counts only with_counts (rest/exposure.ts leaves them out otherwise)
  open_issues_count: t.int({ nullable: true, extensions: { restIf: "open_issues_count" }, resolve: (shown: ShownLabel, _a: unknown, ctx: Context) => counts(ctx, shown, "openIssues") }),
  closed_issues_count: t.int({ nullable: true, extensions: { restIf: "closed_issues_count" }, resolve: (shown: ShownLabel, _a: unknown, ctx: Context) => counts(ctx, shown, "closedIssues") }),
  open_merge_requests_count: t.int({
    nullable: true, extensions: { restIf: "open_merge_requests_count" }, resolve: (shown: ShownLabel, _a: unknown, ctx: Context) => counts(ctx, shown, "openMergeRequests"),
  }),
  subscribed: t.boolean({
    resolve: ({ label }: ShownLabel, _a: unknown, ctx: Context) => (ctx.actor ? ctx.loaders.get(labelSubscriptionLoader).load(`${ctx.actor.user.id}:${label.id}`) : false),
  }),
});

export const ProjectLabelEntity = builder.objectRef<ShownLabel>("ProjectLabel").implement({
  fields: (t) => ({
    ...labelFields(t),
    priority: t.int({
      nullable: true,
      resolve: ({ label, projectId }, _a, ctx: Context) => (projectId == null ? null : ctx.loaders.get(labelPriorityLoader).load(`${projectId}:${label.id}`)),
    }),
    is_project_label: t.boolean({ resolve: ({ label }) => label.projectId != null }),
  }),
});

export const GroupLabelEntity = builder.objectRef<ShownLabel>("GroupLabel").implement({ fields: (t) => labelFields(t) });

const NOT_MODIFIED = { status: 304, description: "Not modified: the caller's subscription is already in that state (no body)." } as const;
const signedIn = { access: "authenticated" } as const;

builder.queryFields((t) => ({
  projectLabels: t.field({
    extensions: { rest: route.get("/projects/:id/labels") },
    type: [ProjectLabelEntity],
    args: {
      id: t.arg.id({ required: true }),
      with_counts: t.arg.boolean({ required: false }),
      include_ancestor_groups: t.arg.boolean({ required: false }),
      search: t.arg.string({ required: false }),
      ...pageArgs,
    },
    resolve: async (_r, { id, page, per_page, with_counts, ...filters }, ctx) => {
      const access = await findProject(ctx, String(id));
      return shown(ctx, await rowsOf(ctx, await listProjectLabels(ctx, access, filters, { page, per_page })), access.project.id, with_counts);
    },
  }),
  projectLabel: t.field({
    extensions: { rest: route.get("/projects/:id/labels/:label_id") },
    type: ProjectLabelEntity,
    args: { id: t.arg.id({ required: true }), label_id: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const { label, access } = await findProjectLabel(ctx, await findProject(ctx, String(args.id)), args.label_id);
      return { label, projectId: access.project.id };
    },
  }),
  groupLabels: t.field({
    extensions: { rest: route.get("/groups/:id/labels"), ...signedIn },
    type: [GroupLabelEntity],
    args: {
      id: t.arg.id({ required: true }),
      with_counts: t.arg.boolean({ required: false }),
      include_ancestor_groups: t.arg.boolean({ required: false }),
      include_descendant_groups: t.arg.boolean({ required: false }),
      only_group_labels: t.arg.boolean({ required: false }),
      search: t.arg.string({ required: false }),
      ...pageArgs,
    },
    resolve: async (_r, { id, page, per_page, with_counts, ...filters }, ctx) => {
      const access = await findGroup(ctx, String(id));
      return shown(ctx, await rowsOf(ctx, await listGroupLabels(ctx, access, filters, { page, per_page })), null, with_counts);
    },
  }),
  groupLabel: t.field({
    extensions: { rest: route.get("/groups/:id/labels/:name"), ...signedIn },
    type: GroupLabelEntity,
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      include_ancestor_groups: t.arg.boolean({ required: false }),
      include_descendant_groups: t.arg.boolean({ required: false }),
      only_group_labels: t.arg.boolean({ required: false }),
    },
    resolve: async (_r, { id, name, ...scope }, ctx) => {
      const { label } = await findGroupLabel(ctx, await findGroup(ctx, String(id)), name, scope);
      return { label, projectId: null };
    },
  }),
}));

builder.mutationFields((t) => ({
  createProjectLabel: t.field({
    type: ProjectLabelEntity,
    extensions: { rest: route.post("/projects/:id/labels") },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      color: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      priority: t.arg.int({ required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => {
      const access = await findProject(ctx, String(id));
      requireAdminProjectLabels(ctx, access);
      return { label: await createProjectLabel(ctx, access, input), projectId: access.project.id };
    },
  }),
  updateProjectLabel: t.field({
    type: ProjectLabelEntity,
    extensions: { rest: route.put("/projects/:id/labels/:label_id") },
    args: {
      id: t.arg.id({ required: true }),
      label_id: t.arg.string({ required: true }),
      new_name: t.arg.string({ required: false }),
      color: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      priority: t.arg.int({ required: false }),
    },
    resolve: async (_r, { id, label_id, ...input }, ctx) => {
      checkLabelChanges(input);
      const access = await findProject(ctx, String(id));
      requireAdminProjectLabels(ctx, access);
      const found = await findProjectLabelToUpdate(ctx, access, label_id);
      return { label: await updateProjectLabel(ctx, found, input), projectId: access.project.id };
    },
  }),
  updateProjectLabelByParam: t.field({
    type: ProjectLabelEntity,
    description: "GitLab's deprecated form (python-gitlab's label.save()): the label named by label_id or name.",
    extensions: { rest: route.put("/projects/:id/labels") },
    args: {
      id: t.arg.id({ required: true }),
      label_id: t.arg.int({ required: false }),
      name: t.arg.string({ required: false }),
      new_name: t.arg.string({ required: false }),
      color: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      priority: t.arg.int({ required: false }),
    },
    resolve: async (_r, { id, label_id, name, ...input }, ctx) => {
      checkLabelChanges(input, { label_id, name });
      const access = await findProject(ctx, String(id));
      requireAdminProjectLabels(ctx, access);
      const found = await findProjectLabelToUpdate(ctx, access, labelRefOf({ label_id, name }));
      return { label: await updateProjectLabel(ctx, found, input), projectId: access.project.id };
    },
  }),
  deleteProjectLabel: t.boolean({
    extensions: { rest: route.del("/projects/:id/labels/:label_id") },
    args: { id: t.arg.id({ required: true }), label_id: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const access = await findProject(ctx, String(args.id));
      requireAdminProjectLabels(ctx, access);
      await deleteProjectLabel(ctx, await findProjectLabel(ctx, access, args.label_id));
      return true;
    },
  }),
  promoteProjectLabel: t.field({
    type: GroupLabelEntity,
    extensions: {
      rest: route.put("/projects/:id/labels/:label_id/promote", {
        otherAnswers: [{ status: 400, description: "The project has no group, or the label is not the project's own (Failed to promote project label to group label)." }],
      }),
      ...signedIn,
    },
    args: { id: t.arg.id({ required: true }), label_id: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => ({ label: await promoteProjectLabel(ctx, await findProject(ctx, String(args.id)), args.label_id), projectId: null }),
  }),
  subscribeProjectLabel: t.field({
    type: ProjectLabelEntity,
    extensions: { rest: route.post("/projects/:id/labels/:label_id/subscribe", { otherAnswers: [NOT_MODIFIED] }), ...signedIn },
    args: { id: t.arg.id({ required: true }), label_id: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const { label, access } = await findProjectLabel(ctx, await findProject(ctx, String(args.id)), args.label_id);
      await subscribeToLabel(ctx, label);
      return { label, projectId: access.project.id };
    },
  }),
  unsubscribeProjectLabel: t.field({
    type: ProjectLabelEntity,
    extensions: { rest: route.post("/projects/:id/labels/:label_id/unsubscribe", { otherAnswers: [NOT_MODIFIED] }), ...signedIn },
    args: { id: t.arg.id({ required: true }), label_id: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const { label, access } = await findProjectLabel(ctx, await findProject(ctx, String(args.id)), args.label_id);
      await unsubscribeFromLabel(ctx, label);
      return { label, projectId: access.project.id };
    },
  }),
  createGroupLabel: t.field({
    type: GroupLabelEntity,
    extensions: { rest: route.post("/groups/:id/labels"), ...signedIn },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      color: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => {
      const access = await findGroup(ctx, String(id));
      requireAdminGroupLabels(ctx, access);
      return { label: await createGroupLabel(ctx, access, input), projectId: null };
    },
  }),
  updateGroupLabel: t.field({
    type: GroupLabelEntity,
    extensions: { rest: route.put("/groups/:id/labels/:name"), ...signedIn },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      new_name: t.arg.string({ required: false }),
      color: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
    },
    resolve: async (_r, { id, name, ...input }, ctx) => {
      checkGroupLabelChanges(input);
      const found = await findGroupLabelToAdminister(ctx, await findGroup(ctx, String(id)), name);
      return { label: await updateGroupLabel(ctx, found, input), projectId: null };
    },
  }),
  updateGroupLabelByParam: t.field({
    type: GroupLabelEntity,
    description: "GitLab's deprecated form (python-gitlab's label.save()): the label named by label_id or name.",
    extensions: { rest: route.put("/groups/:id/labels"), ...signedIn },
    args: {
      id: t.arg.id({ required: true }),
      label_id: t.arg.int({ required: false }),
      name: t.arg.string({ required: false }),
      new_name: t.arg.string({ required: false }),
      color: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
    },
    resolve: async (_r, { id, label_id, name, ...input }, ctx) => {
      checkGroupLabelChanges(input, { label_id, name });
      const found = await findGroupLabelToAdminister(ctx, await findGroup(ctx, String(id)), labelRefOf({ label_id, name }));
      return { label: await updateGroupLabel(ctx, found, input), projectId: null };
    },
  }),
  deleteGroupLabel: t.boolean({
    extensions: { rest: route.del("/groups/:id/labels/:name"), ...signedIn },
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteGroupLabel(ctx, await findGroupLabelToAdminister(ctx, await findGroup(ctx, String(args.id)), args.name));
      return true;
    },
  }),
  subscribeGroupLabel: t.field({
    type: GroupLabelEntity,
    extensions: { rest: route.post("/groups/:id/labels/:label_id/subscribe", { otherAnswers: [NOT_MODIFIED] }), ...signedIn },
    args: { id: t.arg.id({ required: true }), label_id: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const { label } = await findGroupLabel(ctx, await findGroup(ctx, String(args.id)), args.label_id);
      await subscribeToLabel(ctx, label);
      return { label, projectId: null };
    },
  }),
  unsubscribeGroupLabel: t.field({
    type: GroupLabelEntity,
    extensions: { rest: route.post("/groups/:id/labels/:label_id/unsubscribe", { otherAnswers: [NOT_MODIFIED] }), ...signedIn },
    args: { id: t.arg.id({ required: true }), label_id: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const { label } = await findGroupLabel(ctx, await findGroup(ctx, String(args.id)), args.label_id);
      await unsubscribeFromLabel(ctx, label);
      return { label, projectId: null };
    },
  }),
}));
