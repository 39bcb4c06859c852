import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { invalidField } from "@/lib/http/errors";
import type { Product as ProductRow } from "@/generated/prisma-sqlite";
import { newGatewaySecret, sealGatewaySecret } from "./gateway-secret";
import { gatewayProductChanged } from "./gateway-product";

// A new gateway secret, shown once; the old one goes on signing beside it for 24 hours (both signatures in
// X-Platform-Signature, space-separated, as Standard Webhooks does), so the provider can roll its verifier.

export const GATEWAY_SECRET_OVERLAP_MS = 24 * 3_600_000;

export async function rotateGatewaySecret(product: ProductRow) {
  if (!product.gatewaySecret) throw invalidField("id", "The product has no gateway secret yet: it gets one when first published.");
  const secret = newGatewaySecret();
  const expires = new Date(now().getTime() + GATEWAY_SECRET_OVERLAP_MS);
  await db.product.update({
    where: { id: product.id },
    data: {
      gatewaySecret: sealGatewaySecret(product.id, secret),
      previousGatewaySecret: product.gatewaySecret,
      previousGatewaySecretExpiresAt: expires,
      updatedAt: now(),
    },
  });
  gatewayProductChanged(product.slug);
  return {
    object: "gateway_secret" as const,
    productId: product.id,
    gatewaySecret: secret,
    previousSecretExpiresAt: expires.toISOString(),
  };
}
