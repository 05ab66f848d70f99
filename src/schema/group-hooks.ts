// Group webhooks: GitLab's GroupHook entity (EE::API::Entities::GroupHook) and the root fields
// behind /groups/:id/hooks, its sub-resources, history, resend and test.
import { GROUP_HOOK_EVENTS } from "../domain/web-hooks/owners.js";
import { HOOK_EVENTS } from "../domain/web-hooks/switches.js";
import { hookEventRootFields } from "./web-hook-events.js";
import { hookRootFields, hookType } from "./web-hooks.js";

export const GroupHookType = hookType("GroupHook", { owner: "group_id", events: HOOK_EVENTS.slice(4) });

hookRootFields("group", { type: GroupHookType, listType: GroupHookType, settable: GROUP_HOOK_EVENTS });
hookEventRootFields("group");
