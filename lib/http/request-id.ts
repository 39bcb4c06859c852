import { newId } from "@/lib/ids";

/** Every request gets a `req_` id, echoed in `meta.requestId` and the `X-Request-Id` header. */
export function newRequestId(): string {
  return newId("request");
}
