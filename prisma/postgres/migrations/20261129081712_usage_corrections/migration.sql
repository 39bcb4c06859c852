-- AlterTable
ALTER TABLE "UsageEvent" ADD COLUMN     "correctedBy" TEXT,
ADD COLUMN     "correctionOf" TEXT,
ADD COLUMN     "correctionReason" TEXT;
