-- AlterTable
ALTER TABLE "OAuthCode" ADD COLUMN "resource" TEXT;

-- AlterTable
ALTER TABLE "OAuthGrant" ADD COLUMN "resource" TEXT;

-- AlterTable
ALTER TABLE "OAuthToken" ADD COLUMN "resource" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OAuthClient" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "businessId" TEXT,
    "environment" TEXT,
    "registration" TEXT NOT NULL DEFAULT 'manual',
    "name" TEXT NOT NULL,
    "redirectUris" JSONB NOT NULL,
    "scopes" JSONB NOT NULL,
    "clientType" TEXT NOT NULL,
    "secretHash" TEXT,
    "secretLastFour" TEXT,
    "createdBy" TEXT,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_OAuthClient" ("businessId", "clientType", "createdAt", "createdBy", "environment", "id", "name", "redirectUris", "scopes", "secretHash", "secretLastFour", "updatedAt") SELECT "businessId", "clientType", "createdAt", "createdBy", "environment", "id", "name", "redirectUris", "scopes", "secretHash", "secretLastFour", "updatedAt" FROM "OAuthClient";
DROP TABLE "OAuthClient";
ALTER TABLE "new_OAuthClient" RENAME TO "OAuthClient";
CREATE INDEX "OAuthClient_businessId_environment_createdAt_id_idx" ON "OAuthClient"("businessId", "environment", "createdAt", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
