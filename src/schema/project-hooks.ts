// Project webhooks: GitLab's ProjectHook entity (lib/api/entities/project_hook.rb) and the root
// fields behind /projects/:id/hooks, its sub-resources, history, resend and test. The list leaves
// out url_variables and custom_headers, as lib/api/project_hooks.rb presents it.
import { PROJECT_HOOK_EVENTS } from "../domain/web-hooks/owners.js";
import { hookEventRootFields } from "./web-hook-events.js";
import { hookRootFields, hookType } from "./web-hooks.js";

const entityEvents = PROJECT_HOOK_EVENTS.slice(3); // after push, tag push and merge request events (the base entity's)

export const ProjectHookType = hookType("ProjectHook", { owner: "project_id", events: entityEvents });
const ProjectHookListEntryType = hookType("ProjectHookListEntry", { owner: "project_id", events: entityEvents, keyMaps: false });

hookRootFields("project", { type: ProjectHookType, listType: ProjectHookListEntryType, settable: PROJECT_HOOK_EVENTS });
hookEventRootFields("project");
