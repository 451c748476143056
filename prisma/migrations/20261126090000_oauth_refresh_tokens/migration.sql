-- Assistant sign-in: short-lived access tokens with rotating refresh tokens, bound to the tool endpoint.
ALTER TABLE "ApiKey" ADD COLUMN "resource" TEXT;
ALTER TABLE "OAuthClient" ADD COLUMN "grantTypes" TEXT[] NOT NULL DEFAULT ARRAY['authorization_code', 'refresh_token']::TEXT[];

CREATE TABLE "OAuthRefreshToken" (
    "id" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "apiKeyId" UUID NOT NULL,
    "clientId" UUID NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "rotatedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthRefreshToken_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "OAuthRefreshToken_tokenHash_key" ON "OAuthRefreshToken"("tokenHash");
CREATE INDEX "OAuthRefreshToken_apiKeyId_idx" ON "OAuthRefreshToken"("apiKeyId");

ALTER TABLE "OAuthRefreshToken" ADD CONSTRAINT "OAuthRefreshToken_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "OAuthRefreshToken" ADD CONSTRAINT "OAuthRefreshToken_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;
