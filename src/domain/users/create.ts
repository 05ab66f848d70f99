// POST /users (administrators): GitLab's Users::AuthorizedCreateService as users.rb calls it.
import { randomBytes } from "node:crypto";
import type { User } from "../../generated/prisma/client.js";
import { paramError, validationError } from "../../errors.js";
import { requireAdmin } from "../shared/guards.js";
import { changeAvatar, readAvatarArg, type FileUpload } from "../shared/avatars.js";
import type { DomainContext } from "../shared/context.js";
import { recheckIfTaken } from "../shared/preconditions.js";
import { insertUser } from "./records.js";
import { assertUserUnique, userAttributeErrors } from "./validation.js";

export interface CreateUserInput {
  email: string;
  name: string;
  username: string;
  password?: string | null;
  reset_password?: boolean | null;
  force_random_password?: boolean | null;
  admin?: boolean | null;
  bio?: string | null;
  skip_confirmation?: boolean | null;
  /** an uploaded image (multipart `avatar`) */
  avatar?: Promise<FileUpload> | null;
}

export async function createUser(ctx: DomainContext, input: CreateUserInput): Promise<User> {
  requireAdmin(ctx);
  if (!input.password && !input.reset_password && !input.force_random_password) {
    throw paramError("password, reset_password, force_random_password are missing, at least one parameter must be provided");
  }
  await assertUserUnique(ctx, input); // GitLab reports conflicts before validation errors
  const avatar = await readAvatarArg(input.avatar);
  const errors = { ...userAttributeErrors(input), ...avatar.errors };
  if (Object.keys(errors).length) throw validationError(errors);
  const insert = () =>
    changeAvatar(ctx, "user", null, avatar.next, (storeAvatar) =>
      ctx.db.$transaction(async (tx) => {
        const user = await insertUser(ctx, {
          username: input.username,
          name: input.name,
          email: input.email,
          isAdmin: !!input.admin,
          bio: input.bio ?? "",
          password: input.password ?? randomBytes(18).toString("base64url"),
        }, tx);
        const avatarPath = await storeAvatar(tx, user.id);
        return avatarPath ? tx.user.update({ where: { id: user.id }, data: { avatarPath } }) : user;
      }),
    );
  return recheckIfTaken(insert, () => assertUserUnique(ctx, input));
}
