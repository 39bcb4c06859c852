-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "pendingSecret" TEXT,
ADD COLUMN     "rotatedAt" TIMESTAMP(3),
ADD COLUMN     "rotationNotices" JSONB;
