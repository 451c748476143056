-- AlterTable
ALTER TABLE "User" ADD COLUMN     "releasedAt" TIMESTAMP(3),
ADD COLUMN     "releasedEmail" TEXT;

-- CreateTable
CREATE TABLE "PasswordReset" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "replacedAt" TIMESTAMP(3),
    "address" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PasswordReset_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PasswordReset_tokenHash_key" ON "PasswordReset"("tokenHash");

-- CreateIndex
CREATE INDEX "PasswordReset_userId_idx" ON "PasswordReset"("userId");

-- AddForeignKey
ALTER TABLE "PasswordReset" ADD CONSTRAINT "PasswordReset_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Accounts whose every workspace was deleted before this release held their email against a
-- new sign-up: released now, as a deletion does from here on (server/agencies/released-accounts.ts).
WITH stranded AS (
  SELECT u.id, u.email FROM "User" u
  WHERE u."releasedAt" IS NULL
    AND EXISTS (SELECT 1 FROM "Membership" m WHERE m."userId" = u.id)
    AND NOT EXISTS (SELECT 1 FROM "Membership" m JOIN "Workspace" w ON w.id = m."workspaceId" WHERE m."userId" = u.id AND w."deletedAt" IS NULL)
), released AS (
  UPDATE "User" u SET
    "releasedEmail" = u.email,
    "releasedAt" = CURRENT_TIMESTAMP,
    email = 'released-' || u.id || '@herald.invalid',
    "passwordHash" = NULL
  FROM stranded s WHERE u.id = s.id
  RETURNING u.id, s.email
)
INSERT INTO "SecurityEvent" (id, kind, "userId", email, detail)
SELECT gen_random_uuid(), 'account.released', r.id, r.email, '{"reason":"agency_deleted"}'::jsonb FROM released r;
