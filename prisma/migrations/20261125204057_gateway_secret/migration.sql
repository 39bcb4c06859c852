-- AlterTable
ALTER TABLE "Product" ADD COLUMN "gatewaySecret" TEXT;
ALTER TABLE "Product" ADD COLUMN "previousGatewaySecret" TEXT;
ALTER TABLE "Product" ADD COLUMN "previousGatewaySecretExpiresAt" DATETIME;
