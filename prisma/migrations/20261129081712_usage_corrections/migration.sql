-- AlterTable
ALTER TABLE "UsageEvent" ADD COLUMN "correctedBy" TEXT;
ALTER TABLE "UsageEvent" ADD COLUMN "correctionOf" TEXT;
ALTER TABLE "UsageEvent" ADD COLUMN "correctionReason" TEXT;
