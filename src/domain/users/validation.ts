// The User model's validations shared by create and update (GitLab's User and Namespace path
// rules), and the 409 answers users.rb gives before them for a taken e-mail or username.
import { conflict } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";

export interface UserAttributes {
  email?: string | null;
  name?: string | null;
  username?: string | null;
  password?: string | null;
}

type Errors = Record<string, string[]>;

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;

/** GitLab's namespace path rule: may end in '_' or '-', not in '.', '.git' or '.atom'. */
const validUsername = (username: string) => USERNAME_PATTERN.test(username) && !/(\.|\.git|\.atom)$/.test(username);

/** The model errors of the attributes given (absent ones are not checked: an update keeps them). */
export function userAttributeErrors(input: UserAttributes): Errors {
  const errors: Errors = {};
  if (input.username != null) {
    if (!validUsername(input.username)) {
      errors.username = ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."];
    }
    if (input.username.length > 255) errors.username = ["is too long (maximum is 255 characters)"];
  }
  if (input.email != null && !/^[^@\s]+@[^@\s]+$/.test(input.email)) errors.email = ["is invalid"];
  if (input.name != null) {
    if (!input.name.trim()) errors.name = ["can't be blank"];
    if (input.name.length > 255) errors.name = ["is too long (maximum is 255 characters)"];
  }
  if (input.password != null && input.password.length < 8) errors.password = ["is too short (minimum is 8 characters)"];
  return errors;
}

/**
 * users.rb answers 409 for an e-mail or username another user has (the e-mail first), before any
 * validation error. A group path equal to the username counts as a taken username here too.
 */
export async function assertUserUnique(ctx: DomainContext, input: UserAttributes, exceptUserId?: number): Promise<void> {
  const [byEmail, byUsername, namespace] = await Promise.all([
    input.email != null ? ctx.db.user.findUnique({ where: { email: input.email.toLowerCase() }, select: { id: true } }) : null,
    input.username != null ? ctx.db.user.findUnique({ where: { usernameLower: input.username.toLowerCase() }, select: { id: true } }) : null,
    input.username != null
      ? ctx.db.namespace.findUnique({ where: { fullPathLower: input.username.toLowerCase() }, select: { ownerId: true } })
      : null,
  ]);
  if (byEmail && byEmail.id !== exceptUserId) throw conflict("Email has already been taken");
  const takenByUser = byUsername && byUsername.id !== exceptUserId;
  const takenByNamespace = namespace && (exceptUserId === undefined || namespace.ownerId !== exceptUserId);
  if (takenByUser || takenByNamespace) throw conflict("Username has already been taken");
}
