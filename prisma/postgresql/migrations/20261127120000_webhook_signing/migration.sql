-- Signed webhook deliveries (Standard Webhooks): the hook's signing secret and, during the grace
-- period after a rotation, the previous one, both encrypted like the hook's other secrets.
ALTER TABLE "WebHook" ADD COLUMN "encryptedSigningSecret" TEXT;
ALTER TABLE "WebHook" ADD COLUMN "encryptedPreviousSigningSecret" TEXT;
ALTER TABLE "WebHook" ADD COLUMN "previousSigningSecretExpiresAt" TIMESTAMP(3);
