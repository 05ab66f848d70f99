// GitLab's Labels API for projects: the ProjectLabel entity (LabelBasic, Label's `subscribed`,
// then `priority` and `is_project_label`) and the project labels' root fields.
import type { Label } from "../generated/prisma/client.js";
import type { Context } from "../context.js";
import { listProjectLabels } from "../domain/labels/lists.js";
import { labelPriorityLoader, labelSubscriptionLoader } from "../domain/labels/presenter.js";
import { findProjectLabel, requireAdminProjectLabels } from "../domain/labels/queries.js";
import { textColorOf } from "../domain/labels/rules.js";
import { checkLabelChanges, createProjectLabel, deleteProjectLabel, updateProjectLabel } from "../domain/labels/writes.js";
import { findProject } from "../domain/shared/parents.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

/** The label as a project shows it (the project whose priorities apply). */
type ShownLabel = { label: Label; projectId: number };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const ProjectLabelEntity = builder.objectRef<ShownLabel>("ProjectLabel").implement({
  fields: (t) => ({
    id: t.int({ resolve: ({ label }) => label.id }),
    name: t.string({ resolve: ({ label }) => label.title }),
    color: t.string({ resolve: ({ label }) => label.color }),
    description: t.string({ nullable: true, resolve: ({ label }) => label.description }),
    // single-line Markdown is not rendered here: the text, HTML-escaped, in GitLab's paragraph
    description_html: t.string({ nullable: true, resolve: ({ label }) => (label.description ? `<p dir="auto">${escapeHtml(label.description)}</p>` : "") }),
    text_color: t.string({ resolve: ({ label }) => textColorOf(label.color) }),
    remove_on_close: t.boolean({ resolve: () => false }),
    subscribed: t.boolean({
      resolve: ({ label }, _a, ctx: Context) => (ctx.actor ? ctx.loaders.get(labelSubscriptionLoader).load(`${ctx.actor.user.id}:${label.id}`) : false),
    }),
    priority: t.int({ nullable: true, resolve: ({ label, projectId }, _a, ctx: Context) => ctx.loaders.get(labelPriorityLoader).load(`${projectId}:${label.id}`) }),
    is_project_label: t.boolean({ resolve: ({ label }) => label.projectId != null }),
  }),
});

builder.queryFields((t) => ({
  projectLabels: t.field({
    extensions: { rest: route.get("/projects/:id/labels") },
    type: [ProjectLabelEntity],
    args: {
      id: t.arg.id({ required: true }),
      include_ancestor_groups: t.arg.boolean({ required: false }),
      search: t.arg.string({ required: false }),
      ...pageArgs,
    },
    resolve: async (_r, { id, page, per_page, ...filters }, ctx) => {
      const access = await findProject(ctx, String(id));
      const rows = await rowsOf(ctx, await listProjectLabels(ctx, access, filters, { page, per_page }));
      return rows.map((label) => ({ label, projectId: access.project.id }));
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
      const found = await findProjectLabel(ctx, access, label_id);
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
}));
