// GET /api/portal/webhooks/{id}/deliveries?status=&event=: an endpoint's deliveries (portal refresh)
import { portalRead } from "@/lib/portal/portal-json";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { DELIVERY_COLLECTION, listDeliveries } from "@/lib/webhooks/manage-webhooks";

export const GET = portalRead((ctx, url) => {
  const id = url.pathname.split("/").at(-2) ?? "";
  return listDeliveries(ctx.auth, id, parseCollectionQuery(url.searchParams, DELIVERY_COLLECTION));
});
