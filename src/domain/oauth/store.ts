// oidc-provider's storage contract over the OauthArtifact table. Rows are keyed by the SHA-256
// digest of the artifact id (for codes and tokens the id is the secret value itself), and the id is
// left out of the stored JSON. Sessions are also looked up by uid and device codes by user code,
// and then their id is needed back: theirs (and the user code) are kept encrypted.
// Access tokens are also written to the AccessToken table (kind "oauth", resourceId: the
// application): the API authenticates them exactly as personal access tokens, scopes included.
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Services } from "../shared/context.js";
import { digest } from "../shared/secrets.js";

export const OAUTH_TOKEN_KIND = "oauth";

/** A sweep of expired rows runs on about one write in this many. */
const SWEEP_ODDS = 50;
/** Expired OAuth access tokens still answer "Token is expired" for this long, then go. */
const EXPIRED_TOKEN_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
const ID_PURPOSE = "OauthArtifact.id";
/** the models found by something else than their id */
const SEALED_ID_MODELS = new Set(["Session", "DeviceCode"]);
const USER_CODE_PURPOSE = "OauthArtifact.userCode";

type Sealed = AdapterPayload & { sealedId?: string; sealedUserCode?: string };

export class ArtifactStore implements Adapter {
  constructor(
    private readonly services: Services,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(this.services.now().getTime() + expiresIn * 1000) : null;
    const userCode = typeof payload.userCode === "string" ? payload.userCode : undefined;
    const columns = {
      model: this.model,
      payload: JSON.stringify(this.seal(id, payload)),
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: userCode ? digest(userCode) : null,
      clientId: payload.clientId ?? null,
      expiresAt,
    };
    const key = digest(id);
    await this.services.db.oauthArtifact.upsert({ where: { key }, create: { key, ...columns }, update: columns });
    if (this.model === "AccessToken") await mirrorAccessToken(this.services, key, payload, expiresAt);
    if (Math.floor(Math.random() * SWEEP_ODDS) === 0) await sweepExpired(this.services);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.services.db.oauthArtifact.findUnique({ where: { key: digest(id) } });
    return this.usable(row) ? { ...this.unseal(row), jti: id } : undefined;
  }

  /** Sessions by uid: their id comes back from its ciphertext. */
  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.services.db.oauthArtifact.findFirst({ where: { model: this.model, uid } });
    if (!this.usable(row)) return undefined;
    const payload = this.unseal(row);
    return payload.jti ? payload : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.services.db.oauthArtifact.findFirst({ where: { model: this.model, userCode: digest(userCode) } });
    return this.usable(row) ? this.unseal(row) : undefined;
  }

  async consume(id: string): Promise<void> {
    const key = digest(id);
    const row = await this.services.db.oauthArtifact.findUnique({ where: { key } });
    if (!row) return;
    const now = this.services.now();
    const payload = { ...(this.payloadOf(row) as Sealed), consumed: Math.floor(now.getTime() / 1000) };
    await this.services.db.oauthArtifact.update({ where: { key }, data: { payload: JSON.stringify(payload), consumedAt: now } });
  }

  async destroy(id: string): Promise<void> {
    const key = digest(id);
    await this.services.db.oauthArtifact.deleteMany({ where: { key } });
    if (this.model === "AccessToken") await this.services.db.accessToken.deleteMany({ where: { digest: key, kind: OAUTH_TOKEN_KIND } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const where = { model: this.model, grantId };
    if (this.model === "AccessToken") {
      const rows = await this.services.db.oauthArtifact.findMany({ where, select: { key: true } });
      await this.services.db.accessToken.deleteMany({ where: { digest: { in: rows.map((row) => row.key) }, kind: OAUTH_TOKEN_KIND } });
    }
    await this.services.db.oauthArtifact.deleteMany({ where });
  }

  private usable<T extends { model: string; expiresAt: Date | null }>(row: T | null): row is T {
    return !!row && row.model === this.model && (!row.expiresAt || row.expiresAt > this.services.now());
  }

  private payloadOf(row: { payload: string }): AdapterPayload {
    return JSON.parse(row.payload) as AdapterPayload;
  }

  /** The JSON to store: without the id; a session's or device code's id and a user code encrypted. */
  private seal(id: string, payload: AdapterPayload): Sealed {
    const { jti: _id, userCode, ...rest } = payload;
    const sealed: Sealed = rest;
    if (SEALED_ID_MODELS.has(this.model)) sealed.sealedId = this.services.encryption.encrypt(id, ID_PURPOSE);
    if (typeof userCode === "string") sealed.sealedUserCode = this.services.encryption.encrypt(userCode, USER_CODE_PURPOSE);
    return sealed;
  }

  private unseal(row: { payload: string }): AdapterPayload {
    const { sealedId, sealedUserCode, ...payload } = this.payloadOf(row) as Sealed;
    const { decrypt } = this.services.encryption;
    return {
      ...payload,
      ...(sealedId ? { jti: decrypt(sealedId, ID_PURPOSE) } : {}),
      ...(sealedUserCode ? { userCode: decrypt(sealedUserCode, USER_CODE_PURPOSE) } : {}),
    };
  }
}

async function mirrorAccessToken(services: Services, key: string, payload: AdapterPayload, expiresAt: Date | null): Promise<void> {
  const application = payload.clientId ? await services.db.application.findUnique({ where: { uid: payload.clientId } }) : null;
  const userId = Number(payload.accountId);
  if (!application || !Number.isSafeInteger(userId)) return; // no user behind it: not an API token
  const columns = { userId, name: application.name, scopes: payload.scope ?? "", kind: OAUTH_TOKEN_KIND, resourceId: application.id, expiresAt };
  await services.db.accessToken.upsert({ where: { digest: key }, create: { digest: key, ...columns }, update: columns });
}

async function sweepExpired(services: Services): Promise<void> {
  const now = services.now();
  await services.db.oauthArtifact.deleteMany({ where: { expiresAt: { lt: now } } });
  await services.db.oauthSignInAttempt.deleteMany({ where: { expire: { lt: now } } });
  const gone = new Date(now.getTime() - EXPIRED_TOKEN_GRACE_MS);
  await services.db.accessToken.deleteMany({ where: { kind: OAUTH_TOKEN_KIND, expiresAt: { lt: gone } } });
}

/** Deleting an application: its grants, codes and tokens go with it. */
export async function revokeApplicationArtifacts(services: Pick<Services, "db">, application: { id: number; uid: string }): Promise<void> {
  await services.db.oauthArtifact.deleteMany({ where: { clientId: application.uid } });
  await services.db.accessToken.deleteMany({ where: { kind: OAUTH_TOKEN_KIND, resourceId: application.id } });
}
