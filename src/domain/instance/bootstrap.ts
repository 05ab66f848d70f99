// First start against an empty database: create the administrator `root` and its token, once,
// however many processes start together.
import { randomBytes } from "node:crypto";
import type { Services } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { digest, newTokenSecret } from "../shared/secrets.js";
import { insertUser } from "../users/records.js";

export interface BootstrapResult {
  created: boolean;
  /** the generated token secret, only when one was generated */
  generatedToken?: string;
}

/** pg_advisory_xact_lock key of the bootstrap (any constant other code does not use) */
const BOOTSTRAP_LOCK = 4_170_001;

export async function bootstrap(services: Services): Promise<BootstrapResult> {
  if ((await services.db.user.count()) > 0) return { created: false };
  const token = services.config.initialRootToken ?? newTokenSecret();
  try {
    const created = await services.db.$transaction(async (tx) => {
      if (!(await emptyOnceLocked(services, tx))) return false;
      const root = await insertUser(
        services,
        { username: "root", name: "Administrator", email: "admin@example.com", isAdmin: true, password: randomBytes(18).toString("base64url") },
        tx,
      );
      await tx.accessToken.create({
        data: { userId: root.id, name: "initial-root-token", digest: digest(token), scopes: "api sudo", kind: "personal" },
      });
      return true;
    });
    if (!created) return { created: false };
  } catch (error) {
    // SQLite: another process inserted root between our count and our insert
    if ((error as { code?: string }).code === "P2002") return { created: false };
    throw error;
  }
  return { created: true, generatedToken: services.config.initialRootToken ? undefined : token };
}

/**
 * PostgreSQL: processes starting together queue on an advisory lock held until the transaction
 * ends, and each looks again once it has it. (SQLite's writers are serialised by the file lock; a
 * late one fails on the unique username instead.)
 */
async function emptyOnceLocked(services: Services, tx: Tx): Promise<boolean> {
  if (services.dialect !== "postgresql") return true;
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
  return (await tx.user.count()) === 0;
}
