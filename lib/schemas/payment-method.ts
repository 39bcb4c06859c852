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
  .strictObject({ card: Card })
  .meta({ id: "PaymentMethodInput", description: "A card; the built-in test provider takes Stripe's test card numbers only." });
