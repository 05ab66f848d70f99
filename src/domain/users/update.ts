// PUT /users/:id (administrators): GitLab's Users::UpdateService as users.rb calls it, for the
// attributes a Forgeline user holds. A new username renames the personal namespace; its projects
// keep answering on their old paths through redirect routes, as after a group rename.
import type { Prisma, User } from "../../generated/prisma/client.js";
import { validationError } from "../../errors.js";
import { changeAvatar, readAvatarArg, type FileUpload } from "../shared/avatars.js";
import type { DomainContext } from "../shared/context.js";
import { movePaths } from "../groups/writes.js";
import { recheckIfTaken } from "../shared/preconditions.js";
import { hashPassword } from "./records.js";
import { assertUserUnique, userAttributeErrors } from "./validation.js";

export interface UpdateUserInput {
  email?: string | null;
  password?: string | null;
  name?: string | null;
  username?: string | null;
  bio?: string | null;
  admin?: boolean | null;
  skip_reconfirmation?: boolean | null;
  /** an uploaded image replaces the avatar (users.rb has no way to remove one) */
  avatar?: Promise<FileUpload> | null;
}

/** Changes the user found by findUserToAdminister. */
export async function updateUser(ctx: DomainContext, user: User, input: UpdateUserInput): Promise<User> {
  await assertUserUnique(ctx, input, user.id); // 409 before validation errors, as users.rb
  const avatar = await readAvatarArg(input.avatar ?? undefined);
  const errors = { ...userAttributeErrors(input), ...avatar.errors };
  if (Object.keys(errors).length) throw validationError(errors);
  const save = () =>
    changeAvatar(ctx, "user", user.avatarPath, avatar.next, (storeAvatar) =>
      ctx.db.$transaction(async (tx) => {
        const avatarPath = await storeAvatar(tx, user.id);
        await renamePersonalNamespace(tx, user, input);
        return tx.user.update({ where: { id: user.id }, data: { ...changedColumns(input), avatarPath } });
      }),
    );
  return recheckIfTaken(save, () => assertUserUnique(ctx, input, user.id));
}

function changedColumns(input: UpdateUserInput): Prisma.UserUpdateInput {
  return {
    name: input.name ?? undefined,
    username: input.username ?? undefined,
    usernameLower: input.username?.toLowerCase(),
    email: input.email?.toLowerCase(),
    bio: input.bio ?? undefined,
    isAdmin: input.admin ?? undefined,
    passwordDigest: input.password ? hashPassword(input.password) : undefined,
  };
}

/** User#ensure_namespace_correct: the personal namespace follows the username and the name. */
async function renamePersonalNamespace(tx: Prisma.TransactionClient, user: User, input: UpdateUserInput): Promise<void> {
  const namespace = await tx.namespace.findUnique({ where: { ownerId: user.id } });
  if (!namespace) return;
  const path = input.username ?? namespace.path;
  if (path !== namespace.fullPath) await movePaths(tx, namespace, path);
  if (path !== namespace.path || (input.name != null && input.name !== namespace.name)) {
    await tx.namespace.update({ where: { id: namespace.id }, data: { path, name: input.name ?? undefined } });
  }
}
