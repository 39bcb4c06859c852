import { ApiError } from "@/lib/http/errors";
import { errorBody, toApiError } from "@/lib/http/error-mapper";
import { newRequestId } from "@/lib/http/request-id";
import { paymentProviderName } from "../payment-provider";
import { stripeClient, stripeWebhookSecret } from "./stripe-client";
import { applyStripeEvent } from "./apply-stripe-event";

// POST /webhooks/stripe: Stripe's events for this deployment (issue 60). The raw body is verified with the SDK's
// constructEvent against STRIPE_WEBHOOK_SECRET (the Stripe-Signature header, 300 s of tolerance) before anything is
// read from it; a forged or stale delivery is a 400 and changes nothing. Stripe repeats a delivery that is not
// answered 2xx, so an event that could not be applied (the database away) answers 500 and comes again.

const TOLERANCE_SECONDS = 300;

const json = (status: number, body: unknown, requestId: string) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-request-id": requestId } });

export async function handleStripeWebhook(req: Request): Promise<Response> {
  const requestId = newRequestId();
  const baseUrl = new URL(req.url).origin;
  if (paymentProviderName() !== "stripe") {
    const error = new ApiError({
      status: 404,
      type: "not_found_error",
      code: "ROUTE_NOT_FOUND",
      message: "Stripe's webhooks are received only when the server runs with PAYMENT_PROVIDER=stripe.",
    });
    return json(404, errorBody(error, requestId, baseUrl), requestId);
  }
  const body = await req.text();
  let event;
  try {
    event = (await stripeClient()).webhooks.constructEvent(
      body,
      req.headers.get("stripe-signature") ?? "",
      stripeWebhookSecret(),
      TOLERANCE_SECONDS,
    );
  } catch (e) {
    const error = new ApiError({
      status: 400,
      type: "authentication_error",
      code: "INVALID_SIGNATURE",
      message: `The Stripe-Signature header does not verify this body: ${(e as Error).message.split("\n")[0].slice(0, 200)}`,
      suggestion: "Check STRIPE_WEBHOOK_SECRET: it is the whsec_… of this endpoint (or of `stripe listen`).",
    });
    return json(400, errorBody(error, requestId, baseUrl), requestId);
  }
  try {
    const outcome = await applyStripeEvent(event);
    return json(200, { received: true, id: event.id, type: event.type, outcome }, requestId);
  } catch (e) {
    const error = toApiError(e, requestId);
    console.error(`[stripe] event ${event.id} (${event.type}) not applied: ${(e as Error).message}`);
    return json(error.status, errorBody(error, requestId, baseUrl), requestId);
  }
}
