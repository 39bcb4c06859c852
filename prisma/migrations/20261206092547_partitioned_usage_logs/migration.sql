-- CreateTable
CREATE TABLE "MeterEventIdentifier" (
    "productId" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "timestamp" DATETIME NOT NULL,

    PRIMARY KEY ("productId", "identifier")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RequestLog" (
    "id" TEXT NOT NULL,
    "timestamp" DATETIME NOT NULL,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "latency" REAL NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "requestHeaders" JSONB NOT NULL,
    "requestBody" TEXT,
    "responseHeaders" JSONB NOT NULL,
    "responseBody" TEXT,
    "productId" TEXT,

    PRIMARY KEY ("id", "timestamp")
);
INSERT INTO "new_RequestLog" ("apiKey", "businessId", "endpoint", "environment", "id", "ip", "latency", "method", "path", "productId", "projectId", "requestBody", "requestHeaders", "responseBody", "responseHeaders", "statusCode", "timestamp", "userAgent") SELECT "apiKey", "businessId", "endpoint", "environment", "id", "ip", "latency", "method", "path", "productId", "projectId", "requestBody", "requestHeaders", "responseBody", "responseHeaders", "statusCode", "timestamp", "userAgent" FROM "RequestLog";
DROP TABLE "RequestLog";
ALTER TABLE "new_RequestLog" RENAME TO "RequestLog";
CREATE INDEX "RequestLog_projectId_environment_timestamp_id_idx" ON "RequestLog"("projectId", "environment", "timestamp", "id");
CREATE INDEX "RequestLog_projectId_environment_productId_timestamp_id_idx" ON "RequestLog"("projectId", "environment", "productId", "timestamp", "id");
CREATE INDEX "RequestLog_timestamp_idx" ON "RequestLog"("timestamp");
CREATE TABLE "new_UsageEvent" (
    "id" TEXT NOT NULL,
    "timestamp" DATETIME NOT NULL,
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
    "latency" REAL NOT NULL,
    "requestSize" INTEGER NOT NULL,
    "responseSize" INTEGER NOT NULL,
    "computeTime" REAL,
    "cost" REAL,
    "billable" BOOLEAN NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "region" TEXT,
    "productId" TEXT,
    "subscriptionId" TEXT,
    "providerId" TEXT,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "paidByCredits" BOOLEAN NOT NULL DEFAULT false,
    "quantities" JSONB,
    "correctionOf" TEXT,
    "correctedBy" TEXT,
    "correctionReason" TEXT,
    "identifier" TEXT,

    PRIMARY KEY ("id", "timestamp")
);
INSERT INTO "new_UsageEvent" ("apiKey", "billable", "businessId", "computeTime", "correctedBy", "correctionOf", "correctionReason", "cost", "endpoint", "environment", "errorType", "id", "identifier", "ip", "latency", "method", "paidByCredits", "path", "productId", "projectId", "providerId", "quantities", "quantity", "region", "requestSize", "responseSize", "statusCode", "subscriptionId", "timestamp", "userAgent", "userId") SELECT "apiKey", "billable", "businessId", "computeTime", "correctedBy", "correctionOf", "correctionReason", "cost", "endpoint", "environment", "errorType", "id", "identifier", "ip", "latency", "method", "paidByCredits", "path", "productId", "projectId", "providerId", "quantities", "quantity", "region", "requestSize", "responseSize", "statusCode", "subscriptionId", "timestamp", "userAgent", "userId" FROM "UsageEvent";
DROP TABLE "UsageEvent";
ALTER TABLE "new_UsageEvent" RENAME TO "UsageEvent";
CREATE INDEX "UsageEvent_projectId_environment_timestamp_id_idx" ON "UsageEvent"("projectId", "environment", "timestamp", "id");
CREATE INDEX "UsageEvent_businessId_environment_timestamp_idx" ON "UsageEvent"("businessId", "environment", "timestamp");
CREATE INDEX "UsageEvent_subscriptionId_timestamp_id_idx" ON "UsageEvent"("subscriptionId", "timestamp", "id");
CREATE INDEX "UsageEvent_providerId_timestamp_idx" ON "UsageEvent"("providerId", "timestamp");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Meter events' identifiers move to a table of their own (UsageEvent lost its unique index on them).
INSERT INTO "MeterEventIdentifier" ("productId", "identifier", "eventId", "timestamp")
SELECT "productId", "identifier", "id", "timestamp" FROM "UsageEvent" WHERE "identifier" IS NOT NULL AND "productId" IS NOT NULL;
