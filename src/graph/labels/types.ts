// Labels on the graph (GitLab's Label type): Project.labels / label(title:) and Group.labels /
// label(title:) through the domain's label lists (the REST routes' LabelsFinder rules), with
// GitLab's graph defaults: a project's or group's own labels unless includeAncestorGroups, and a
// group's projects' labels unless onlyGroupLabels.
import type { Context } from "../../context.js";
import { listGroupLabels, listProjectLabels } from "../../domain/labels/lists.js";
import { labelDescriptionHtml } from "../../domain/labels/presenter.js";
import { groupLabelTitled, projectLabelTitled } from "../../domain/labels/queries.js";
import { textColorOf } from "../../domain/labels/rules.js";
import { shownGroupAccess, shownProjectAccess } from "../../domain/shared/parents.js";
import { builder } from "../shared/builder.js";
import { offsetConnection } from "../shared/connections.js";
import { encodeGid } from "../shared/ids.js";
import { LabelConnection, LabelRef } from "../shared/issuables.js";
import { GroupRef } from "../groups/types.js";
import { ProjectRef } from "../projects/types.js";

builder.objectFields(LabelRef, (t) => ({
  id: t.id({
    description: "gid://forgeline/ProjectLabel/<id> or gid://forgeline/GroupLabel/<id>, as GitLab's.",
    resolve: (label) => encodeGid(label.projectId != null ? "ProjectLabel" : "GroupLabel", label.id),
  }),
  textColor: t.string({ resolve: (label) => textColorOf(label.color) }),
  descriptionHtml: t.string({ nullable: true, resolve: (label) => labelDescriptionHtml(label.description) }),
  createdAt: t.expose("createdAt", { type: "Time" }),
  updatedAt: t.expose("updatedAt", { type: "Time" }),
}));

const SEARCH = "Title or description contains this.";

builder.objectFields(ProjectRef, (t) => ({
  labels: t.connection(
    {
      type: LabelRef,
      description: "The project's labels by title, with its groups' when includeAncestorGroups.",
      args: {
        searchTerm: t.arg.string({ description: SEARCH }),
        title: t.arg.string({ description: "Exactly this title." }),
        includeAncestorGroups: t.arg.boolean({ defaultValue: false }),
      },
      resolve: async (project, args, ctx: Context) => {
        const access = await shownProjectAccess(ctx, project);
        const filters = { include_ancestor_groups: args.includeAncestorGroups ?? false, search: args.searchTerm, title: args.title };
        return offsetConnection(args, (page) => listProjectLabels(ctx, access, filters, page));
      },
    },
    LabelConnection,
  ),
  label: t.field({
    type: LabelRef,
    nullable: true,
    description: "The label of this title: the project's own, else its nearest group's.",
    args: { title: t.arg.string({ required: true }) },
    resolve: async (project, args, ctx: Context) => {
      return projectLabelTitled(ctx, await shownProjectAccess(ctx, project), args.title);
    },
  }),
}));

builder.objectFields(GroupRef, (t) => ({
  labels: t.connection(
    {
      type: LabelRef,
      description: "The group's labels by title; its ancestors', descendant groups' and projects' as asked.",
      args: {
        searchTerm: t.arg.string({ description: SEARCH }),
        title: t.arg.string({ description: "Exactly this title." }),
        includeAncestorGroups: t.arg.boolean({ defaultValue: false }),
        includeDescendantGroups: t.arg.boolean({ defaultValue: false }),
        onlyGroupLabels: t.arg.boolean({ defaultValue: false, description: "Leave out the labels of the group's projects." }),
      },
      resolve: async (group, args, ctx: Context) => {
        const access = await shownGroupAccess(ctx, group);
        const filters = {
          include_ancestor_groups: args.includeAncestorGroups ?? false,
          include_descendant_groups: args.includeDescendantGroups ?? false,
          only_group_labels: args.onlyGroupLabels ?? false,
          search: args.searchTerm,
          title: args.title,
        };
        return offsetConnection(args, (page) => listGroupLabels(ctx, access, filters, page));
      },
    },
    LabelConnection,
  ),
  label: t.field({
    type: LabelRef,
    nullable: true,
    description: "The group label of this title: the group's own, else its nearest ancestor's.",
    args: { title: t.arg.string({ required: true }) },
    resolve: async (group, args, ctx: Context) => {
      return groupLabelTitled(ctx, await shownGroupAccess(ctx, group), args.title);
    },
  }),
}));
