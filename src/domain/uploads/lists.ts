// GET /projects/:id/uploads and /groups/:id/uploads: a parent's uploads, newest first, for those
// who administer them.
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { ownerOf, UPLOAD_COLUMNS, type UploadRecord } from "./queries.js";
import { requireAdministerUploads } from "./rules.js";

export async function listUploads(ctx: DomainContext, parent: GroupOrProjectAccess, page: PageArgs): Promise<Page<UploadRecord>> {
  requireAdministerUploads(ctx, parent);
  const where = ownerOf(parent);
  return paginate(
    page,
    (cap) => ctx.db.upload.count({ where, take: cap }),
    (skip, take) => ctx.db.upload.findMany({ where, select: UPLOAD_COLUMNS, orderBy: { id: "desc" }, skip, take }),
  );
}
