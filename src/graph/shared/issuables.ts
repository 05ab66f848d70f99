// What issues and merge requests share on the graph: labels, links and the project they are in.
import type { Context } from "../../context.js";
import { projectById } from "../../domain/shared/parents.js";
import { labelsOfIssuable, type IssuableKind } from "../../domain/labels/issuable-labels.js";
import type { Label } from "../../generated/prisma/client.js";
import { type ProjectWithNamespace } from "../../domain/projects/lists.js";
import { projectPageUrl } from "../../domain/shared/web-urls.js";
import { builder } from "./builder.js";
import { countedConnection } from "./connection-types.js";
import { arrayConnection, type ConnectionArgs } from "./connections.js";

/** A label as issues and merge requests carry it. */
export const LabelRef = builder.objectRef<Label>("Label");

builder.objectType(LabelRef, {
  fields: (t) => ({
    title: t.exposeString("title"),
    color: t.exposeString("color"),
    description: t.exposeString("description", { nullable: true }),
  }),
});

export const LabelConnection = countedConnection(LabelRef, "Label");

export const labelsConnection = async (ctx: Context, args: ConnectionArgs, kind: IssuableKind, issuable: { id: number }) =>
  arrayConnection(args, await labelsOfIssuable(ctx, kind, issuable.id));

/**
 * The project of an issue or merge request the caller could read (so the project is visible to
 * them): kept between requests by the domain's project cache, one read per project at most.
 */
export async function projectOfIssuable(ctx: Context, issuable: { projectId: number }): Promise<ProjectWithNamespace> {
  const project = await projectById(ctx, issuable.projectId);
  if (!project) throw new Error(`project ${issuable.projectId} does not exist`);
  return project;
}

export async function issuableWebUrl(ctx: Context, issuable: { projectId: number; iid: number }, kind: "issues" | "merge_requests") {
  return projectPageUrl(ctx, await projectOfIssuable(ctx, issuable), kind, issuable.iid);
}

/** GitLab's `iid` argument is a String; anything but digits finds nothing. */
export const iidOf = (iid: string): number | null => (/^\d{1,9}$/.test(iid) ? Number(iid) : null);

export const SORTS = {
  CREATED_DESC: { order_by: "created_at", sort: "desc" },
  CREATED_ASC: { order_by: "created_at", sort: "asc" },
  UPDATED_DESC: { order_by: "updated_at", sort: "desc" },
  UPDATED_ASC: { order_by: "updated_at", sort: "asc" },
  TITLE_ASC: { order_by: "title", sort: "asc" },
  TITLE_DESC: { order_by: "title", sort: "desc" },
} as const;
