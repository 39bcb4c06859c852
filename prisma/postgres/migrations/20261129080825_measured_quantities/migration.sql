-- AlterTable
ALTER TABLE "UsageEvent" ADD COLUMN     "quantities" JSONB;
