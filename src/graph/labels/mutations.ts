// labelCreate (GitLab's Mutations::Labels::Create): a label of the project (projectPath) or of the
// group (groupPath), by the REST routes' domain writes: admin_label on the parent, the same
// colour and title rules; a title the parent already shows is the model's "has already been taken".
import { GraphQLError } from "graphql";
import type { Context } from "../../context.js";
import { appErrorOf } from "../../errors.js";
import { DEFAULT_LABEL_COLOR } from "../../domain/labels/issuable-labels.js";
import { requireAdminLabels } from "../../domain/labels/queries.js";
import { createGroupLabel, createProjectLabel } from "../../domain/labels/writes.js";
import { findGroupToWrite, findProjectToWrite, type GroupOrProjectAccess } from "../../domain/shared/parents.js";
import { ruleError } from "../shared/errors.js";
import { LabelRef } from "../shared/issuables.js";
import { groupPathOf, projectPathOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import "./types.js";

/** The one parent the input names (signed in first), as GitLab's ResolvesResourceParent. */
async function parentOf(ctx: Context, input: { projectPath?: string | number | null; groupPath?: string | number | null }): Promise<GroupOrProjectAccess> {
  if ((input.projectPath == null) === (input.groupPath == null)) throw new GraphQLError("Exactly one of group_path or project_path arguments is required");
  return input.projectPath != null ? findProjectToWrite(ctx, projectPathOf(input.projectPath)) : findGroupToWrite(ctx, groupPathOf(input.groupPath!));
}

payloadMutation("labelCreate", {
  description: "Creates a label in a project or a group (Planners, Reporters and above).",
  inputFields: (t) => ({
    projectPath: t.id({ description: "Full path of the project (or give groupPath)." }),
    groupPath: t.id({ description: "Full path of the group (or give projectPath)." }),
    title: t.string({ required: true }),
    color: t.string({ defaultValue: DEFAULT_LABEL_COLOR, description: "#RGB or #RRGGBB, or a CSS colour name; GitLab's default colour when not given." }),
    description: t.string(),
  }),
  write: async (input, ctx) => {
    const parent = await parentOf(ctx, input);
    requireAdminLabels(ctx, parent);
    const values = { name: input.title, color: input.color ?? DEFAULT_LABEL_COLOR, description: input.description };
    try {
      return "group" in parent ? await createGroupLabel(ctx, parent, values) : await createProjectLabel(ctx, parent, values);
    } catch (error) {
      // REST's 409 "Label already exists" is the model's uniqueness error on the graph
      if (appErrorOf(error)?.status === 409) throw ruleError("Title has already been taken");
      throw error;
    }
  },
  returns: { field: "label", type: LabelRef },
});
