-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "assistantConfirmation" BOOLEAN;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "assistantConfirmation" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "McpSession" (
    "id" UUID NOT NULL,
    "keyId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "protocolVersion" TEXT NOT NULL,
    "clientName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "McpSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "McpSessionPost" (
    "sessionId" UUID NOT NULL,
    "postId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "announcedAt" TIMESTAMP(3),

    CONSTRAINT "McpSessionPost_pkey" PRIMARY KEY ("sessionId","postId")
);

-- CreateTable
CREATE TABLE "AssistantProposal" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "keyId" UUID,
    "sessionId" UUID,
    "toolName" TEXT NOT NULL,
    "procedure" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "workspaceHeader" TEXT,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "decidedByUserId" UUID,
    "declineReason" TEXT,
    "executedAt" TIMESTAMP(3),
    "outcome" JSONB,
    "outcomeSecret" TEXT,

    CONSTRAINT "AssistantProposal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "McpSession_keyId_idx" ON "McpSession"("keyId");

-- CreateIndex
CREATE INDEX "McpSessionPost_postId_idx" ON "McpSessionPost"("postId");

-- CreateIndex
CREATE INDEX "AssistantProposal_workspaceId_createdAt_idx" ON "AssistantProposal"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "AssistantProposal_status_expiresAt_idx" ON "AssistantProposal"("status", "expiresAt");

-- AddForeignKey
ALTER TABLE "McpSession" ADD CONSTRAINT "McpSession_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpSessionPost" ADD CONSTRAINT "McpSessionPost_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "McpSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AssistantProposal" ADD CONSTRAINT "AssistantProposal_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
