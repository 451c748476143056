-- A workspace may turn demo (sandbox) accounts off: none can be connected there any more.
ALTER TABLE "Workspace" ADD COLUMN "demoAccounts" BOOLEAN NOT NULL DEFAULT true;
