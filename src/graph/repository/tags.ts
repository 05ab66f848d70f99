// Tags on Project, read through the domain's tag list (the REST route's function): null for callers
// who may not read the code, as Project.branches.
import { listTags, type TagView } from "../../domain/repository/tags.js";
import { shownProjectAccess } from "../../domain/shared/parents.js";
import { builder } from "../shared/builder.js";
import { CommitRef } from "./commits.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { ProjectRef } from "../projects/types.js";

export const TagRef = builder.objectRef<TagView>("Tag");

builder.objectType(TagRef, {
  description: "A tag of the project's repository: lightweight (no message) or annotated.",
  fields: (t) => ({
    name: t.string({ resolve: (view) => view.tag.name }),
    message: t.string({ nullable: true, description: "An annotated tag's message; null for a lightweight tag.", resolve: (view) => view.tag.message }),
    target: t.string({ description: "The tag object's id (annotated) or the commit's sha (lightweight).", resolve: (view) => view.target }),
    commit: t.field({ type: CommitRef, description: "The commit the tag points at.", resolve: (view) => view.commit }),
    createdAt: t.field({
      type: "Time",
      nullable: true,
      description: "When an annotated tag was created; null for a lightweight tag.",
      resolve: (view) => (view.tag.objectSha == null ? null : view.tag.createdAt),
    }),
  }),
});

const TagConnection = countedConnection(TagRef, "Tag");

const TagSortEnum = builder.enumType("TagSort", {
  description: "Tag order: by name, by version (v1.10 after v1.9) or by the commit's date (updated).",
  values: { NAME_ASC: {}, NAME_DESC: {}, VERSION_ASC: {}, VERSION_DESC: {}, UPDATED_ASC: {}, UPDATED_DESC: {} },
});

type TagSort = "NAME_ASC" | "NAME_DESC" | "VERSION_ASC" | "VERSION_DESC" | "UPDATED_ASC" | "UPDATED_DESC";

const orderOf = (sort: TagSort) => {
  const [field, direction] = sort.toLowerCase().split("_") as ["name" | "version" | "updated", "asc" | "desc"];
  return { order_by: field, sort: direction };
};

builder.objectFields(ProjectRef, (t) => ({
  tags: t.connection(
    {
      type: TagRef,
      nullable: true,
      description: "Tags, most recently updated first unless sorted; null when the caller may not read the repository.",
      args: {
        search: t.arg.string({ description: "Name contains this (^term: starts with, term$: ends with)." }),
        sort: t.arg({ type: TagSortEnum }),
      },
      resolve: async (project, args, ctx) => {
        const access = await shownProjectAccess(ctx, project);
        const filters = { search: args.search, ...(args.sort ? orderOf(args.sort as TagSort) : {}) };
        return orNull(() => offsetConnection(args, (page) => listTags(ctx, access, filters, page)));
      },
    },
    TagConnection,
  ),
}));
