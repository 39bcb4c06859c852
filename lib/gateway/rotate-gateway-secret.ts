import { withEvents } from "@/lib/events/emit-event";
import { now } from "@/lib/clock";
import { ApiError, invalidField } from "@/lib/http/errors";
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
  const view = {
    object: "gateway_secret" as const,
    productId: product.id,
    gatewaySecret: secret,
    previousSecretExpiresAt: expires.toISOString(),
  };
  // Conditional on the secret it replaces, and its answer stored with the commit: a retry after a crash replays
  // this secret instead of rotating again (which would drop the secret the provider's verifier still holds).
  const rotated = await withEvents(
    (tx) =>
      tx.product.updateMany({
        where: { id: product.id, gatewaySecret: product.gatewaySecret },
        data: {
          gatewaySecret: sealGatewaySecret(product.id, secret),
          previousGatewaySecret: product.gatewaySecret,
          previousGatewaySecretExpiresAt: expires,
          updatedAt: now(),
        },
      }),
    { answer: (done) => (done.count === 1 ? view : undefined) },
  );
  if (rotated.count !== 1)
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      field: "id",
      message: "The gateway secret was rotated by another request meanwhile.",
      suggestion: "Read the product again; rotate once more only if you need another secret.",
    });
  gatewayProductChanged(product.slug);
  return view;
}
