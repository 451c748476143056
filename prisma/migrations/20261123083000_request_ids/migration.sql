-- The request that caused an event, carried into the webhook deliveries fanned out from it,
-- so log lines of later work name the request (X-Request-Id) that started it.
ALTER TABLE "OutboxEvent" ADD COLUMN "requestId" TEXT;
ALTER TABLE "WebhookDelivery" ADD COLUMN "requestId" TEXT;
