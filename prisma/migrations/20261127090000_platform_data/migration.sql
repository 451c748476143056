-- What an adapter needs besides the token (a Mastodon server, a Pinterest board, …), and the
-- per-server OAuth apps of federated networks.
ALTER TABLE "Connection" ADD COLUMN "platformData" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "ConnectSession" ADD COLUMN "appSealed" TEXT;

CREATE TABLE "InstanceApp" (
    "id" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "instanceUrl" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "appSealed" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "InstanceApp_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "InstanceApp_platform_instanceUrl_redirectUri_key" ON "InstanceApp"("platform", "instanceUrl", "redirectUri");
