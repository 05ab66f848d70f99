// A user row as stored: inserting one with its personal namespace, and the password digest.
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import type { Prisma, User } from "../../generated/prisma/client.js";
import { type DomainContext } from "../shared/context.js";

export interface NewUser {
  username: string;
  name: string;
  email: string;
  isAdmin?: boolean;
  bio?: string;
  password: string;
  userType?: string;
}

/** Inserts a user with their personal namespace (no permission checks: callers do them). */
export async function insertUser(ctx: Pick<DomainContext, "db">, user: NewUser, tx: Prisma.TransactionClient = ctx.db): Promise<User> {
  return tx.user.create({
    data: {
      username: user.username,
      usernameLower: user.username.toLowerCase(),
      name: user.name,
      email: user.email.toLowerCase(),
      isAdmin: !!user.isAdmin,
      bio: user.bio ?? "",
      userType: user.userType ?? "human",
      passwordDigest: hashPassword(user.password),
      namespace: {
        create: {
          kind: "user",
          name: user.name,
          path: user.username,
          fullPath: user.username,
          fullPathLower: user.username.toLowerCase(),
        },
      },
    },
  });
}

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("hex")}$${scryptSync(password, salt, 32).toString("hex")}`;
}

/** Whether `password` is the user's account password (re-authentication, e.g. to approve). */
export function passwordMatches(user: Pick<User, "passwordDigest">, password: string | null | undefined): boolean {
  const [scheme, salt, hash] = (user.passwordDigest ?? "").split("$");
  if (scheme !== "scrypt" || !salt || !hash || !password) return false;
  const stored = Buffer.from(hash, "hex");
  return timingSafeEqual(scryptSync(password, Buffer.from(salt, "hex"), stored.length), stored);
}
