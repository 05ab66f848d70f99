// The instance's ghost user (GitLab's Users::Internal.ghost): created on first need, it holds the
// issues, merge requests, notes, reactions and project snippets of deleted users.
import { randomBytes } from "node:crypto";
import type { User } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { insertUser } from "./records.js";

const GHOST_BIO =
  'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.';

/**
 * The ghost user, created when there is none yet: username "ghost" (or "ghost1", "ghost2", ... when
 * taken, as GitLab's unique_internal does), e-mail ghost@example.com alike. Created outside any
 * deletion's transaction, so that a concurrent creator's row is found again instead of failing it.
 */
export async function ghostUser(ctx: DomainContext): Promise<User> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await ctx.db.user.findFirst({ where: { userType: "ghost" }, orderBy: { id: "asc" } });
    if (existing) return existing;
    try {
      return await createGhost(ctx);
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error; // another process created one: look again
    }
  }
  throw new Error("could not create the ghost user");
}

async function createGhost(ctx: DomainContext): Promise<User> {
  const suffix = await freeSuffix(ctx);
  return ctx.db.$transaction((tx) =>
    insertUser(ctx, {
      username: `ghost${suffix}`,
      name: "Ghost User",
      email: `ghost${suffix}@example.com`,
      bio: GHOST_BIO,
      userType: "ghost",
      password: randomBytes(24).toString("base64url"), // never used: internal users cannot sign in
    }, tx),
  );
}

/** "" when "ghost" and ghost@example.com are free, else the first free number. */
async function freeSuffix(ctx: DomainContext): Promise<string> {
  for (let n = 0; ; n++) {
    const suffix = n === 0 ? "" : String(n);
    const [user, email, namespace] = await Promise.all([
      ctx.db.user.findUnique({ where: { usernameLower: `ghost${suffix}` }, select: { id: true } }),
      ctx.db.user.findUnique({ where: { email: `ghost${suffix}@example.com` }, select: { id: true } }),
      ctx.db.namespace.findUnique({ where: { fullPathLower: `ghost${suffix}` }, select: { id: true } }),
    ]);
    if (!user && !email && !namespace) return suffix;
  }
}
