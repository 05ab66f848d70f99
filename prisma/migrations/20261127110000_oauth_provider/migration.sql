-- The OAuth 2 / OpenID Connect provider: its artifacts (sessions, interactions, grants, codes and
-- tokens, keyed by the SHA-256 digest of their id), its encrypted key set (JWKS, cookie keys) and
-- the failed sign-in counts.
CREATE TABLE "OauthArtifact" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "model" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "grantId" TEXT,
    "uid" TEXT,
    "userCode" TEXT,
    "clientId" TEXT,
    "expiresAt" DATETIME,
    "consumedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "OauthArtifact_grantId_idx" ON "OauthArtifact"("grantId");
CREATE INDEX "OauthArtifact_uid_idx" ON "OauthArtifact"("uid");
CREATE INDEX "OauthArtifact_userCode_idx" ON "OauthArtifact"("userCode");
CREATE INDEX "OauthArtifact_clientId_idx" ON "OauthArtifact"("clientId");
CREATE INDEX "OauthArtifact_expiresAt_idx" ON "OauthArtifact"("expiresAt");

CREATE TABLE "OauthKeySet" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "secrets" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "OauthSignInAttempt" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL,
    "expire" DATETIME
);
