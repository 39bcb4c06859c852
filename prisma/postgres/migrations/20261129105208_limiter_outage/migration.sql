-- AlterTable
ALTER TABLE "Price" ADD COLUMN     "onLimiterOutage" TEXT NOT NULL DEFAULT 'open';
