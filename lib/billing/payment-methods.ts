import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { withEvents } from "@/lib/events/emit-event";
import type { AuthContext } from "@/lib/http/auth-context";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { listCollection } from "@/lib/http/list-collection";
import type { Prisma, PaymentMethod as PaymentMethodRow } from "@/generated/prisma-sqlite";
import { CURRENT_SUBSCRIPTION_STATUSES, type PaymentMethodCreate } from "@/lib/schemas/billing";
import { paymentProvider, paymentProviderName, type StoredPaymentMethod } from "./payment-provider";
import { serializeSubscription } from "./subscription-serialize";
import { emitSubscriptionEvent } from "./subscription-events";
import { invalidateBillingCache } from "./rate-request";
import { collectInvoice } from "./collect-payment";

// A business's payment methods (issue 60): `POST /v1/payment-methods` attaches a PaymentMethod (Stripe.js's pm_…,
// or a test card with the built-in provider) to the business's Customer, makes it the default, gives it to the
// business's current subscriptions in the key's environment, and then charges their open invoices at once: how an
// unpaid subscription is paid and served again before the call returns. `POST /v1/payment-methods/setup` answers a
// SetupIntent's client secret for Stripe.js's Payment Element to collect the card.

export function serializePaymentMethod(r: PaymentMethodRow) {
  return {
    id: r.id,
    object: "payment_method" as const,
    type: "card" as const,
    provider: r.provider,
    brand: r.brand,
    last4: r.last4,
    expMonth: r.expMonth,
    expYear: r.expYear,
    default: r.isDefault,
    stripePaymentMethod: r.provider === "stripe" ? r.token : null,
    createdAt: r.createdAt.toISOString(),
  };
}

export const PAYMENT_METHOD_COLLECTION: CollectionSpec = {
  filters: { createdAt: { type: "date" }, brand: { type: "string" }, last4: { type: "string" } },
  sortable: ["createdAt"],
  defaultSort: "-createdAt",
  fields: [],
};

export const listPaymentMethods = (auth: AuthContext, query: CollectionQuery) =>
  listCollection({
    spec: PAYMENT_METHOD_COLLECTION,
    query,
    baseWhere: { businessId: auth.businessId },
    from: db.paymentMethod,
    serialize: serializePaymentMethod,
  });

export async function addPaymentMethod(auth: AuthContext, input: PaymentMethodCreate) {
  // Stripe's refusal (a declined card) is thrown here, before anything is written.
  const stored = await paymentProvider().attach(input.paymentMethod, "paymentMethod", auth.businessId);
  const makeDefault = input.default ?? true;
  const t = now();
  // Read before the transaction, which starts with a write (SQLite: a transaction that reads first cannot write once
  // another has committed since its read).
  const known = await db.paymentMethod.findFirst({ where: { businessId: auth.businessId, token: stored.token } });
  const { method, subscriptions } = await withEvents(async (tx) => {
    if (makeDefault)
      await tx.paymentMethod.updateMany({ where: { businessId: auth.businessId, isDefault: true }, data: { isDefault: false } });
    const card = { brand: stored.brand, last4: stored.last4, expMonth: stored.expMonth ?? null, expYear: stored.expYear ?? null };
    const method = known
      ? await tx.paymentMethod.update({ where: { id: known.id }, data: { ...card, isDefault: makeDefault || known.isDefault } })
      : await tx.paymentMethod.create({
          data: {
            id: newId("paymentMethod"),
            businessId: auth.businessId,
            provider: stored.provider,
            token: stored.token,
            customer: stored.customer ?? null,
            ...card,
            isDefault: makeDefault,
            createdAt: t,
          },
        });
    const subscriptions = makeDefault ? await giveToSubscriptions(tx, auth, stored) : [];
    return { method, subscriptions };
  });
  for (const s of subscriptions) invalidateBillingCache(s.projectId, s.environment);
  // The open invoices of those subscriptions are charged now, oldest first; a success makes an unpaid one active.
  const charged: { invoiceId: string; outcome: string }[] = [];
  if (subscriptions.length) {
    const open = await db.invoice.findMany({
      where: { subscriptionId: { in: subscriptions.map((s) => s.id) }, status: "open" },
      orderBy: { periodStart: "asc" },
    });
    for (const inv of open) charged.push({ invoiceId: inv.id, outcome: await collectInvoice(inv.id) });
  }
  return { ...serializePaymentMethod(method), charged };
}

async function giveToSubscriptions(tx: Prisma.TransactionClient, auth: AuthContext, stored: StoredPaymentMethod) {
  // The current subscriptions, and an ended one still owing an invoice (its final invoice, charged to the new card).
  const owing = await tx.invoice.findMany({
    where: { businessId: auth.businessId, environment: auth.environment, status: "open" },
    select: { subscriptionId: true },
  });
  const current = await tx.subscription.findMany({
    where: {
      businessId: auth.businessId,
      environment: auth.environment,
      OR: [{ status: { in: CURRENT_SUBSCRIPTION_STATUSES } }, { id: { in: owing.map((i) => i.subscriptionId) } }],
    },
  });
  const updated = [];
  for (const sub of current) {
    const after = await tx.subscription.update({
      where: { id: sub.id },
      data: { paymentMethod: stored as unknown as Prisma.InputJsonValue, updatedAt: now() },
    });
    await emitSubscriptionEvent(after, "subscription.updated", tx, { paymentMethod: serializeSubscription(sub).paymentMethod });
    updated.push(after);
  }
  return updated;
}

export async function setupPaymentMethod(auth: AuthContext) {
  const intent = await paymentProvider().setup(auth.businessId);
  return {
    id: intent.id,
    object: "setup_intent" as const,
    clientSecret: intent.clientSecret,
    publishableKey: paymentProviderName() === "stripe" ? (process.env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
  };
}
