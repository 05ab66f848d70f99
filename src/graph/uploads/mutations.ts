// uploadCreate (a Forgeline extension: GitLab uploads through REST only) and uploadDelete (GitLab's):
// a project's or a group's markdown upload, named by `projectPath` or `groupPath`.
import type { Context } from "../../context.js";
import { GraphQLError } from "graphql";
import { findGroupToWrite, findProjectToWrite, type GroupOrProjectAccess } from "../../domain/shared/parents.js";
import { findUploadBySecretToDelete } from "../../domain/uploads/queries.js";
import { createUpload, deleteUpload, type UploadedFile } from "../../domain/uploads/writes.js";
import { groupPathOf, projectPathOf } from "../shared/mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../shared/payload-mutation.js";
import { FileUploadRef } from "./types.js";

const parentFields = (t: PayloadInputFieldBuilder) => ({
  projectPath: t.id({ description: "Full path of the project (or give groupPath)." }),
  groupPath: t.id({ description: "Full path of the group (or give projectPath)." }),
});

/** The one parent the input names (GitLab's ResolvesResourceParent), found for a write (signed in first). */
async function parentOf(ctx: Context, input: { projectPath?: string | number | null; groupPath?: string | number | null }): Promise<GroupOrProjectAccess> {
  if ((input.projectPath == null) === (input.groupPath == null)) throw new GraphQLError("Exactly one of group_path or project_path arguments is required");
  return input.projectPath != null
    ? findProjectToWrite(ctx, projectPathOf(input.projectPath))
    : findGroupToWrite(ctx, groupPathOf(input.groupPath!));
}

payloadMutation("uploadCreate", {
  description: "Uploads a file to attach to markdown (any signed-in caller who may see the project or group).",
  inputFields: (t) => ({ ...parentFields(t), file: t.field({ type: "Upload", required: true, description: "The file (a multipart request part)." }) }),
  write: async (input, ctx) => createUpload(ctx, await parentOf(ctx, input), input.file as unknown as Promise<UploadedFile>),
  returns: { field: "upload", type: FileUploadRef },
});

payloadMutation("uploadDelete", {
  description: "Deletes a markdown upload by its secret and file name (Maintainers and above).",
  inputFields: (t) => ({ ...parentFields(t), secret: t.string({ required: true }), filename: t.string({ required: true }) }),
  write: async (input, ctx) => {
    const found = await findUploadBySecretToDelete(ctx, await parentOf(ctx, input), input.secret, input.filename);
    await deleteUpload(ctx, found);
    return found.upload;
  },
  returns: { field: "upload", type: FileUploadRef },
});
