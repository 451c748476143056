-- Settling interrupted publishes by asking the network: each attempt's intent and checkpoint,
-- how an interrupted attempt was settled, and what demo networks received.
ALTER TABLE "PostTarget" ADD COLUMN "attemptIntent" JSONB,
ADD COLUMN "attemptCheckpoint" TEXT,
ADD COLUMN "confirmedAt" TIMESTAMP(3),
ADD COLUMN "settlement" TEXT;

CREATE TABLE "SandboxReceipt" (
    "connectionId" UUID NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "postedId" TEXT NOT NULL,
    "permalink" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxReceipt_pkey" PRIMARY KEY ("connectionId","idempotencyKey")
);
