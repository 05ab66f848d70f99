// What the AuditEvent entity shows beyond the columns: GitLab's `details` hash (stored as JSON text).
import type { AuditEvent } from "../../generated/prisma/client.js";

export function auditEventDetails(event: Pick<AuditEvent, "details">): Record<string, unknown> {
  return JSON.parse(event.details) as Record<string, unknown>;
}
