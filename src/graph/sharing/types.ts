// The groups a project or a group is shared with, as the graph shows them (the REST entities'
// shared_with_groups: only groups the caller may see).
import type { GroupShare } from "../../domain/shared/caches.js";
import { groupSharedWithGroups, projectSharedWithGroups } from "../../domain/sharing/presenter.js";
import { builder } from "../shared/builder.js";
import { GroupRef } from "../groups/types.js";
import { ProjectRef } from "../projects/types.js";

export const GroupShareRef = builder.objectRef<GroupShare>("GroupShare").implement({
  description: "A group a project or a group is shared with: its members hold at most `accessLevel` through it.",
  fields: (t) => ({
    groupFullPath: t.exposeString("groupFullPath"),
    groupName: t.exposeString("groupName"),
    accessLevel: t.exposeInt("groupAccess", { description: "GitLab's access level number (10 Guest ... 50 Owner)." }),
    expiresAt: t.field({ type: "String", nullable: true, description: "YYYY-MM-DD", resolve: (share) => share.expiresAt?.toISOString().slice(0, 10) ?? null }),
  }),
});

builder.objectFields(ProjectRef, (t) => ({
  sharedWithGroups: t.field({ type: [GroupShareRef], resolve: (project, _a, ctx) => projectSharedWithGroups(ctx, project) }),
}));

builder.objectFields(GroupRef, (t) => ({
  sharedWithGroups: t.field({ type: [GroupShareRef], resolve: (group, _a, ctx) => groupSharedWithGroups(ctx, group) }),
}));
