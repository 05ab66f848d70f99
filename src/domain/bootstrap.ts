// First start against an empty database: create the administrator `root` and its token.
import type { Services } from "./context.js";
import { digest, newTokenSecret } from "./secrets.js";
import { insertUser } from "./users.js";
import { randomBytes } from "node:crypto";

export interface BootstrapResult {
  created: boolean;
  /** the generated token secret, only when one was generated */
  generatedToken?: string;
}

export async function bootstrap(services: Services): Promise<BootstrapResult> {
  if ((await services.db.user.count()) > 0) return { created: false };
  const token = services.config.initialRootToken ?? newTokenSecret();
  await services.db.$transaction(async (tx) => {
    const root = await insertUser(
      services,
      { username: "root", name: "Administrator", email: "admin@example.com", isAdmin: true, password: randomBytes(18).toString("base64url") },
      tx,
    );
    await tx.accessToken.create({
      data: { userId: root.id, name: "initial-root-token", digest: digest(token), scopes: "api sudo", kind: "personal" },
    });
  });
  return { created: true, generatedToken: services.config.initialRootToken ? undefined : token };
}
