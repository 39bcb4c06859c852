-- Meter events' identifiers move to a table of their own: UsageEvent becomes partitioned, and a partitioned table's
-- unique index must hold its partition column.
CREATE TABLE "MeterEventIdentifier" (
    "productId" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MeterEventIdentifier_pkey" PRIMARY KEY ("productId","identifier")
);
INSERT INTO "MeterEventIdentifier" ("productId", "identifier", "eventId", "timestamp")
SELECT "productId", "identifier", "id", "timestamp" FROM "UsageEvent" WHERE "identifier" IS NOT NULL AND "productId" IS NOT NULL;

-- RequestLog and UsageEvent become tables partitioned by day of "timestamp" (native range partitioning), keyed by
-- (id, timestamp). This migration makes each with its default partition, which takes every existing row: the
-- partitions job (lib/db/partitions.ts) adds one partition per day ahead of time, moves a day's rows out of the
-- default partition when it makes that day's, and drops whole days past the longest retention.
ALTER TABLE "RequestLog" RENAME TO "RequestLog_unpartitioned";
ALTER TABLE "RequestLog_unpartitioned" DROP CONSTRAINT "RequestLog_pkey";
DROP INDEX "RequestLog_projectId_environment_productId_timestamp_id_idx";
DROP INDEX "RequestLog_projectId_environment_timestamp_id_idx";
DROP INDEX "RequestLog_timestamp_idx";

CREATE TABLE "RequestLog" (
    "id" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "latency" DOUBLE PRECISION NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "requestHeaders" JSONB NOT NULL,
    "requestBody" TEXT,
    "responseHeaders" JSONB NOT NULL,
    "responseBody" TEXT,
    "productId" TEXT,

    CONSTRAINT "RequestLog_pkey" PRIMARY KEY ("id","timestamp")
) PARTITION BY RANGE ("timestamp");
CREATE INDEX "RequestLog_projectId_environment_timestamp_id_idx" ON "RequestLog"("projectId", "environment", "timestamp", "id");
CREATE INDEX "RequestLog_projectId_environment_productId_timestamp_id_idx" ON "RequestLog"("projectId", "environment", "productId", "timestamp", "id");
CREATE INDEX "RequestLog_timestamp_idx" ON "RequestLog"("timestamp");
CREATE TABLE "RequestLog_default" PARTITION OF "RequestLog" DEFAULT;
INSERT INTO "RequestLog" ("id", "timestamp", "businessId", "projectId", "environment", "apiKey", "method", "endpoint", "path", "statusCode", "latency", "ip", "userAgent", "requestHeaders", "requestBody", "responseHeaders", "responseBody", "productId")
SELECT "id", "timestamp", "businessId", "projectId", "environment", "apiKey", "method", "endpoint", "path", "statusCode", "latency", "ip", "userAgent", "requestHeaders", "requestBody", "responseHeaders", "responseBody", "productId" FROM "RequestLog_unpartitioned";
DROP TABLE "RequestLog_unpartitioned";

ALTER TABLE "UsageEvent" RENAME TO "UsageEvent_unpartitioned";
ALTER TABLE "UsageEvent_unpartitioned" DROP CONSTRAINT "UsageEvent_pkey";
DROP INDEX "UsageEvent_productId_identifier_key";
DROP INDEX "UsageEvent_businessId_environment_timestamp_idx";
DROP INDEX "UsageEvent_projectId_environment_timestamp_id_idx";
DROP INDEX "UsageEvent_providerId_timestamp_idx";
DROP INDEX "UsageEvent_subscriptionId_timestamp_id_idx";

CREATE TABLE "UsageEvent" (
    "id" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "userId" TEXT,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "errorType" TEXT,
    "latency" DOUBLE PRECISION NOT NULL,
    "requestSize" INTEGER NOT NULL,
    "responseSize" INTEGER NOT NULL,
    "computeTime" DOUBLE PRECISION,
    "cost" DOUBLE PRECISION,
    "billable" BOOLEAN NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "region" TEXT,
    "identifier" TEXT,
    "productId" TEXT,
    "providerId" TEXT,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "subscriptionId" TEXT,
    "paidByCredits" BOOLEAN NOT NULL DEFAULT false,
    "quantities" JSONB,
    "correctedBy" TEXT,
    "correctionOf" TEXT,
    "correctionReason" TEXT,

    CONSTRAINT "UsageEvent_pkey" PRIMARY KEY ("id","timestamp")
) PARTITION BY RANGE ("timestamp");
CREATE INDEX "UsageEvent_projectId_environment_timestamp_id_idx" ON "UsageEvent"("projectId", "environment", "timestamp", "id");
CREATE INDEX "UsageEvent_businessId_environment_timestamp_idx" ON "UsageEvent"("businessId", "environment", "timestamp");
CREATE INDEX "UsageEvent_subscriptionId_timestamp_id_idx" ON "UsageEvent"("subscriptionId", "timestamp", "id");
CREATE INDEX "UsageEvent_providerId_timestamp_idx" ON "UsageEvent"("providerId", "timestamp");
CREATE TABLE "UsageEvent_default" PARTITION OF "UsageEvent" DEFAULT;
INSERT INTO "UsageEvent" ("id", "timestamp", "businessId", "projectId", "environment", "apiKey", "userId", "method", "endpoint", "path", "statusCode", "errorType", "latency", "requestSize", "responseSize", "computeTime", "cost", "billable", "ip", "userAgent", "region", "identifier", "productId", "providerId", "quantity", "subscriptionId", "paidByCredits", "quantities", "correctedBy", "correctionOf", "correctionReason")
SELECT "id", "timestamp", "businessId", "projectId", "environment", "apiKey", "userId", "method", "endpoint", "path", "statusCode", "errorType", "latency", "requestSize", "responseSize", "computeTime", "cost", "billable", "ip", "userAgent", "region", "identifier", "productId", "providerId", "quantity", "subscriptionId", "paidByCredits", "quantities", "correctedBy", "correctionOf", "correctionReason" FROM "UsageEvent_unpartitioned";
DROP TABLE "UsageEvent_unpartitioned";
