-- AlterTable
ALTER TABLE "Project" ADD COLUMN "quotaNotifyAt" JSONB;
