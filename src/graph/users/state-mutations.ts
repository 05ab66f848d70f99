// userBlock, userUnblock, userBan, userUnban, userDeactivate and userActivate (administrators, as
// REST POST /users/:id/block, ... /activate; not in GitLab's GraphQL API): one `input`, a payload
// `{ user, errors }` with the user as the write left it. REST's answers map to the payload so:
// `true` and `null` (nothing to do, users.rb `break`) return the user; `false` (the state machine
// refused the transition) is the message GitLab's state machine records; a 403 with a reason is a
// rule the administrator ran into and goes to `errors` (a bare 403 is the administrator check:
// "resource not available").
import type { Context } from "../../context.js";
import type { User } from "../../generated/prisma/client.js";
import {
  activateUser, banUser, blockUser, deactivateUser, findUserToAdminister, unbanUser, unblockUser, type StateAnswer,
} from "../../domain/users/states.js";
import { findUser } from "../../domain/users/queries.js";
import { refusalsAsErrors, ruleError } from "../shared/errors.js";
import { recordIdOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { UserRef } from "./types.js";

type StateChange = (ctx: Context, user: User) => Promise<StateAnswer>;

async function changeState(ctx: Context, gid: string | number, change: StateChange, event: string) {
  const id = recordIdOf(gid, "User");
  const answer = await refusalsAsErrors(async () => change(ctx, await findUserToAdminister(ctx, id)));
  // state_machines' message for a refused event (User#activate, #ban, ... returning false)
  if (answer === false) throw ruleError(`State cannot transition via "${event}"`);
  return findUser(ctx, id);
}

/** The mutation, the domain's write and the state machine event it fires. */
const STATE_MUTATIONS: [name: string, change: StateChange, event: string, description: string][] = [
  ["userBlock", blockUser, "block", "Blocks an active or deactivated user; a blocked or banned one stays as is."],
  ["userUnblock", unblockUser, "activate", "Unblocks a blocked or banned user."],
  ["userBan", banUser, "ban", "Bans an active user."],
  ["userUnban", unbanUser, "unban", "Unbans a banned user."],
  ["userDeactivate", deactivateUser, "deactivate", "Deactivates a dormant user (no token used for 90 days); a deactivated one stays as is."],
  ["userActivate", activateUser, "activate", "Activates a deactivated user."],
];

for (const [name, change, event, description] of STATE_MUTATIONS) {
  payloadMutation(name, {
    description: `${description} Administrators only.`,
    inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the user." }) }),
    write: (input, ctx) => changeState(ctx, input.id, change, event),
    returns: { field: "user", type: UserRef },
  });
}
