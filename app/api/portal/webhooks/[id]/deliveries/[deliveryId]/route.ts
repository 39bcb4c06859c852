// GET /api/portal/webhooks/{id}/deliveries/{deliveryId}: one message with its payload and every attempt (the drawer)
import { portalRead } from "@/lib/portal/portal-json";
import { getDeliveryOrThrow, serializeDelivery } from "@/lib/webhooks/manage-webhooks";

export const GET = portalRead(async (ctx, url) => {
  const [id, , deliveryId] = url.pathname.split("/").slice(-3);
  return serializeDelivery(await getDeliveryOrThrow(ctx.auth, id ?? "", deliveryId ?? ""));
});
