-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "scopes" TEXT;

-- CreateTable
CREATE TABLE "ClientLink" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "issuedById" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "brandName" TEXT NOT NULL,
    "brandLogoUrl" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClientLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConnectSession" (
    "id" UUID NOT NULL,
    "linkId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "platform" TEXT,
    "stateHash" TEXT,
    "codeVerifierSealed" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "choicesSealed" TEXT,
    "connectionId" UUID,
    "error" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConnectSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ClientLink_tokenHash_key" ON "ClientLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ClientLink_workspaceId_kind_idx" ON "ClientLink"("workspaceId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectSession_tokenHash_key" ON "ConnectSession"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectSession_stateHash_key" ON "ConnectSession"("stateHash");

-- CreateIndex
CREATE INDEX "ConnectSession_linkId_idx" ON "ConnectSession"("linkId");

-- AddForeignKey
ALTER TABLE "ClientLink" ADD CONSTRAINT "ClientLink_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConnectSession" ADD CONSTRAINT "ConnectSession_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "ClientLink"("id") ON DELETE CASCADE ON UPDATE CASCADE;
