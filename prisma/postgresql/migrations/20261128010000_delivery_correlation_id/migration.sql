-- The X-Request-Id of the request that fired a webhook event, carried into its delivery (header and log line)
ALTER TABLE "WebHookDelivery" ADD COLUMN "correlationId" TEXT;
