// The params of a share (GitLab's project_group_links and group_group_links): the access it gives
// and when it ends.
import { paramError } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";

/** Gitlab::Access.all_values: what a share may give. */
export const SHARE_ACCESS_LEVELS: readonly number[] = [
  AccessLevel.guest, AccessLevel.planner, AccessLevel.reporter, AccessLevel.developer, AccessLevel.maintainer, AccessLevel.owner,
];

export interface ShareInput {
  group_id: number;
  group_access: number;
  expires_at?: string | null;
}

/** Grape's checks of `group_access` (a listed value) and `expires_at` (a date), before any lookup. */
export function checkShareInput(input: ShareInput): { groupAccess: number; expiresAt: Date | null } {
  if (!SHARE_ACCESS_LEVELS.includes(input.group_access)) throw paramError("group_access does not have a valid value");
  if (input.expires_at == null || input.expires_at === "") return { groupAccess: input.group_access, expiresAt: null };
  const date = /^\d{4}-\d{2}-\d{2}$/.test(input.expires_at) ? new Date(`${input.expires_at}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== input.expires_at) throw paramError("expires_at is invalid");
  return { groupAccess: input.group_access, expiresAt: date };
}
