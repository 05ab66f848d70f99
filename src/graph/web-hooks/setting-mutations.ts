// One URL variable or custom header of a webhook at a time (Forgeline's: GitLab's graph has no
// hooks): projectHookUrlVariableSet/Delete, projectHookCustomHeaderSet/Delete and the group
// hook pairs, over REST PUT and DELETE /projects/:id/hooks/:hook_id/url_variables/:key,
// .../custom_headers/:key and the group routes (web-hooks/settings.ts; web-hooks/owners.ts says who may:
// project Maintainers, group Owners, administrators). Values are write-only: the payload's hook
// shows only the keys.
import type { WebHook } from "../../generated/prisma/client.js";
import type { OwnedHook } from "../../domain/web-hooks/owners.js";
import { toEntity } from "../../domain/web-hooks/presenter.js";
import { deleteHookSetting, setHookSetting, type HookSetting } from "../../domain/web-hooks/settings.js";
import type { Context } from "../../context.js";
import { hookOf } from "./mutations.js";
import { GroupHookRef, HOOK_TYPENAMES, ProjectHookRef, type HookKind } from "./types.js";
import { payloadMutation } from "../shared/payload-mutation.js";

const HOOK_REFS = { project: ProjectHookRef, group: GroupHookRef };

const SETTINGS: { setting: HookSetting; name: string; label: string }[] = [
  { setting: "url_variables", name: "UrlVariable", label: "URL variable" },
  { setting: "custom_headers", name: "CustomHeader", label: "custom header" },
];

/** Runs a write on the hook a global id names and answers the hook as the write saved it. */
async function changeHook(ctx: Context, kind: HookKind, gid: string | number, write: (found: OwnedHook) => Promise<WebHook>) {
  return toEntity(ctx, await write(await hookOf(ctx, kind, gid)));
}

function hookSettingMutations(kind: HookKind) {
  const returns = { field: `${kind}Hook`, type: HOOK_REFS[kind], description: "The hook: keys only, never values." };
  const idField = { required: true, description: `Global id of the ${HOOK_TYPENAMES[kind]}.` } as const;

  for (const { setting, name, label } of SETTINGS) {
    payloadMutation(`${kind}Hook${name}Set`, {
      description: `Sets the value of one ${label} of a webhook (added when the key is new).`,
      inputFields: (t) => ({
        id: t.id(idField),
        key: t.string({ required: true }),
        value: t.string({ required: true, description: "Write-only: never shown." }),
      }),
      write: (input, ctx) => changeHook(ctx, kind, input.id, (found) => setHookSetting(ctx, found, setting, input.key, input.value)),
      returns,
    });

    payloadMutation(`${kind}Hook${name}Delete`, {
      description: `Removes one ${label} of a webhook; a key the hook does not have is not available.`,
      inputFields: (t) => ({ id: t.id(idField), key: t.string({ required: true }) }),
      write: (input, ctx) => changeHook(ctx, kind, input.id, (found) => deleteHookSetting(ctx, found, setting, input.key)),
      returns,
    });
  }
}

hookSettingMutations("project");
hookSettingMutations("group");
