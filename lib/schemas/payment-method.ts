import { z } from "zod";

// A card as requests give it: subscriptions, credit purchases.

const Card = z.strictObject({
  number: z.string().min(12).max(23).meta({ example: "4242424242424242" }),
  expMonth: z.number().int().min(1).max(12).optional(),
  expYear: z.number().int().min(2000).max(2100).optional(),
  cvc: z
    .string()
    .regex(/^\d{3,4}$/)
    .optional(),
});
export const PaymentMethodInput = z
  .union([
    z
      .string()
      .regex(/^pm_[A-Za-z0-9_]{3,250}$/, "A PaymentMethod id, pm_…")
      .meta({ description: "A PaymentMethod id from Stripe.js (pm_…), or one of Stripe's test ids such as pm_card_visa." }),
    z.strictObject({ card: Card }),
  ])
  .meta({
    id: "PaymentMethodInput",
    description:
      "A PaymentMethod id (pm_…) from Stripe.js, or, with the built-in test provider only (PAYMENT_PROVIDER=test), a test card. With PAYMENT_PROVIDER=stripe a card number is refused (RAW_CARD_NOT_ACCEPTED).",
  });
