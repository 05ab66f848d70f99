// A group a project or a group is shared with, as the Project and GroupDetail entities list it
// (GitLab's SharedGroupWithProject and SharedGroupWithGroup: the same fields).
import type { GroupShare } from "../domain/shared/caches.js";
import { builder } from "./builder.js";

export const SharedGroupEntity = builder.objectRef<GroupShare>("SharedGroup").implement({
  fields: (t) => ({
    group_id: t.exposeInt("groupId"),
    group_name: t.exposeString("groupName"),
    group_full_path: t.exposeString("groupFullPath"),
    group_access_level: t.exposeInt("groupAccess"),
    expires_at: t.expose("expiresAt", { type: "Date", nullable: true }),
  }),
});
