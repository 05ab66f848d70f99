// One upload of a project or a group (GitLab's Banzai::UploadsFinder): by id, for those who
// administer the uploads, or by its secret and file name, for anyone who may read the parent.
import { randomBytes } from "node:crypto";
import { recordNotFound } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { requireAdministerUploads } from "./rules.js";

/** An upload's row without its content (read only when the file is sent). */
export interface UploadRecord {
  id: number;
  projectId: number | null;
  groupId: number | null;
  secret: string;
  filename: string;
  size: number;
  uploadedById: number | null;
  createdAt: Date;
}

/** An upload found through a parent the caller may see. */
export interface FoundUpload {
  parent: GroupOrProjectAccess;
  upload: UploadRecord;
}

export const UPLOAD_COLUMNS = {
  id: true, projectId: true, groupId: true, secret: true, filename: true, size: true, uploadedById: true, createdAt: true,
} as const;

/** The `projectId` or `groupId` condition of a parent's uploads. */
export const ownerOf = (parent: GroupOrProjectAccess) =>
  "group" in parent ? { groupId: parent.group.id } : { projectId: parent.project.id };

/** A new upload's secret: 32 lowercase hex digits, as GitLab's FileUploader.generate_secret. */
export const newSecret = () => randomBytes(16).toString("hex");

/** GET/DELETE .../uploads/:upload_id: Maintainers and above (ids can be enumerated), then 404 "Not found". */
export async function findUploadById(ctx: DomainContext, parent: GroupOrProjectAccess, id: number): Promise<FoundUpload> {
  requireAdministerUploads(ctx, parent);
  const upload = await ctx.db.upload.findFirst({ where: { id, ...ownerOf(parent) }, select: UPLOAD_COLUMNS });
  if (!upload) throw recordNotFound();
  return { parent, upload };
}

/** DELETE .../uploads/:secret/:filename: Maintainers and above, then findUploadBySecret. */
export async function findUploadBySecretToDelete(ctx: DomainContext, parent: GroupOrProjectAccess, secret: string, filename: string): Promise<FoundUpload> {
  requireAdministerUploads(ctx, parent);
  return findUploadBySecret(ctx, parent, secret, filename);
}

/** .../uploads/:secret/:filename: whoever may see the parent; the exact secret and name, else 404 "Not found". */
export async function findUploadBySecret(ctx: DomainContext, parent: GroupOrProjectAccess, secret: string, filename: string): Promise<FoundUpload> {
  const upload = /^[0-9a-f]{32}$/.test(secret)
    ? await ctx.db.upload.findFirst({ where: { secret, filename, ...ownerOf(parent) }, select: UPLOAD_COLUMNS })
    : null;
  if (!upload) throw recordNotFound();
  return { parent, upload };
}
