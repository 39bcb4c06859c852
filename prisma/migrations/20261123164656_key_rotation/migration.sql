-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "pendingSecret" TEXT;
ALTER TABLE "ApiKey" ADD COLUMN "rotatedAt" DATETIME;
ALTER TABLE "ApiKey" ADD COLUMN "rotationNotices" JSONB;
