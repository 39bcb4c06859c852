-- CreateTable
CREATE TABLE "Webhook" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "businessId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" JSONB NOT NULL,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" DATETIME,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "headers" JSONB,
    "metadata" JSONB,
    "failingSince" DATETIME,
    "disabledReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "webhookId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastAttempt" DATETIME,
    "nextRetry" DATETIME,
    "lockedUntil" DATETIME,
    "lockedBy" TEXT,
    "requestHeaders" JSONB,
    "requestBody" TEXT NOT NULL,
    "responseStatus" INTEGER,
    "responseHeaders" JSONB,
    "responseBody" TEXT,
    "responseDuration" INTEGER,
    "lastError" TEXT,
    "attemptLog" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Webhook_businessId_environment_createdAt_id_idx" ON "Webhook"("businessId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextRetry_idx" ON "WebhookDelivery"("status", "nextRetry");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookId_createdAt_id_idx" ON "WebhookDelivery"("webhookId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_webhookId_eventId_key" ON "WebhookDelivery"("webhookId", "eventId");
