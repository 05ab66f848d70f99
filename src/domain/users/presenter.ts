// What user entities show beyond the columns: the web URL and the avatar (an upload, else Gravatar).
import { hash } from "node:crypto";
import type { User } from "../../generated/prisma/client.js";
import { avatarUrl } from "../shared/avatars.js";
import { type DomainContext, type Services } from "../shared/context.js";

export function webUrlOfUser(ctx: Pick<DomainContext, "config">, user: Pick<User, "username">) {
  return `${ctx.config.publicUrl}/${user.username}`;
}

/**
 * The uploaded avatar's URL, else Gravatar's URL for the e-mail (remembered per user row: lists
 * render the same cached users again and again).
 */
export function avatarUrlOfUser(services: Pick<Services, "config">, user: Pick<User, "email" | "avatarPath">) {
  return user.avatarPath ? avatarUrl(services, user.avatarPath)! : gravatarUrlOfUser(user);
}

/** Gravatar's URL for the user's e-mail. */
export function gravatarUrlOfUser(user: Pick<User, "email">) {
  let url = gravatarUrls.get(user);
  if (url === undefined) {
    url = `https://www.gravatar.com/avatar/${hash("sha256", user.email.trim().toLowerCase())}?s=80&d=identicon`;
    gravatarUrls.set(user, url);
  }
  return url;
}

const gravatarUrls = new WeakMap<Pick<User, "email">, string>();
