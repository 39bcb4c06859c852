import type { z } from "zod";
import { db } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { now } from "@/lib/clock";
import { isIdOf, newId } from "@/lib/ids";
import { ApiError, invalidField, missingField } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";

import { withEvents } from "@/lib/events/emit-event";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import type { Prisma, Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import {
  CURRENT_SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_STATUSES,
  type SubscriptionCreate,
  type SubscriptionUpdate,
} from "@/lib/schemas/billing";
import { dbNull } from "@/lib/db/client";
import { compilePrice } from "./price-plan";
import { nanosToDecimal, toNanos } from "./money";
import { DEFAULT_THRESHOLDS } from "./spend-alerts";
import { serializeSubscription } from "./subscription-serialize";
import { emitSubscriptionEvent } from "./subscription-events";
export { serializeSubscription };
import { addInterval } from "./periods";
import { paymentProvider, paymentProviderName } from "./payment-provider";
import { invalidateBillingCache } from "./rate-request";
import { closePeriod } from "./close-period";
import { collectInvoice } from "./collect-payment";

// Subscriptions: a project subscribes to one price of a product. One current subscription (active, past_due or
// unpaid) per project and environment, since every billable request of the project is rated by it.

export const CURRENT = CURRENT_SUBSCRIPTION_STATUSES;

export const SUBSCRIPTION_COLLECTION: CollectionSpec = {
  filters: {
    id: { type: "string" },
    status: { type: "enum", values: SUBSCRIPTION_STATUSES },
    priceId: { type: "string" },
    productId: { type: "string" },
    projectId: { type: "string" },
    cancelAtPeriodEnd: { type: "boolean" },
    currentPeriodEnd: { type: "date" },
    createdAt: { type: "date" },
  },
  sortable: ["createdAt", "currentPeriodEnd", "id"],
  fields: [
    "projectId",
    "productId",
    "priceId",
    "status",
    "currentPeriodStart",
    "currentPeriodEnd",
    "cancelAtPeriodEnd",
    "canceledAt",
    "endedAt",
    "pendingPriceId",
    "paymentMethod",
    "metadata",
    "environment",
    "createdAt",
    "updatedAt",
  ],
};

/** A request's amount as the exact decimal string it was written as. */
const exact = (n: number) => nanosToDecimal(toNanos(n));

const conflict = (code: string, field: string, message: string) =>
  new ApiError({ status: 409, type: "conflict_error", code, field, message });

/**
 * A price that may be subscribed to: a price of one of this business's own products (to try it), or of another
 * business's public, active product. Anything else (unknown, private, or another business's inactive product) is
 * a 404, so a private product's existence is not revealed; an inactive price is a 400 naming the field.
 */
async function subscribablePrice(auth: AuthContext, priceId: string, field: string) {
  const price = isIdOf("price", priceId) ? await db.price.findUnique({ where: { id: priceId }, include: { product: true } }) : null;
  const own = price !== null && price.businessId === auth.businessId && price.environment === auth.environment;
  const listed = price !== null && price.product.visibility === "public" && price.product.isActive;
  if (!price || (!own && !listed))
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      field,
      message: `No such price: '${priceId.replace(/[^A-Za-z0-9_]/g, "").slice(0, 64)}'.`,
    });
  if (!price.product.isActive) throw conflict("STATE_CONFLICT", field, "The price's product is inactive; activate it before subscribing.");
  if (!price.isActive) throw invalidField(field, "The price is inactive: choose one of the product's active prices.");
  return price;
}

export const getSubscriptionOrThrow = (auth: AuthContext, id: string) => subscriptions.getOrThrow(auth, id);

const subscriptions = tenantResource<SubscriptionRow>({
  model: () => db.subscription,
  idKind: "subscription",
  label: "subscription",
  collection: SUBSCRIPTION_COLLECTION,
  serialize: serializeSubscription,
});

export const listSubscriptions = (auth: AuthContext, query: CollectionQuery) => subscriptions.list(auth, query);

/**
 * With Stripe, a live subscription to another business's product is a promise to pay that business: refused until
 * its payout account can take charges (Connect onboarding done). Test mode is free to try.
 */
async function refuseUnpayableProvider(auth: AuthContext, sellerId: string) {
  if (paymentProviderName() !== "stripe" || auth.environment !== "production" || sellerId === auth.businessId) return;
  const account = await db.stripeAccount.findUnique({ where: { businessId: sellerId }, select: { chargesEnabled: true } });
  if (account?.chargesEnabled) return;
  throw new ApiError({
    status: 409,
    type: "conflict_error",
    code: "PROVIDER_NOT_PAYABLE",
    field: "priceId",
    message: "The product's provider has not finished its payout onboarding, so it cannot be paid yet.",
    suggestion: "Subscribe in test mode meanwhile; the provider finishes onboarding with POST /v1/payout-account.",
  });
}

export async function createSubscription(auth: AuthContext, input: z.infer<typeof SubscriptionCreate>) {
  const price = await subscribablePrice(auth, input.priceId, "priceId");
  const projectId = input.projectId ?? auth.projectId;
  const project = await db.project.findFirst({ where: { id: projectId, businessId: auth.businessId } });
  if (!project)
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      field: "projectId",
      message: "No such project.",
    });
  // Another business's product is paid for: its subscribers give a card (a test card in test mode).
  if (price.businessId !== auth.businessId && !input.paymentMethod) throw missingField("paymentMethod");
  await refuseUnpayableProvider(auth, price.businessId);
  const paymentMethod = input.paymentMethod ? await paymentProvider().attach(input.paymentMethod, "paymentMethod", auth.businessId) : null;
  const t = now();
  const plan = compilePrice(price);
  const current = await db.subscription.findFirst({
    where: { projectId, environment: auth.environment, productId: price.productId, status: { in: CURRENT } },
  });
  if (current)
    throw conflict(
      "ALREADY_EXISTS",
      "priceId",
      `The project already subscribes to this product (${current.id}); change its price with PATCH or cancel it first.`,
    );
  // The transaction starts with its write: on SQLite a transaction that reads first cannot always upgrade to a
  // write while another connection writes. The unique currentSlot decides a race between two subscribers.
  const row = await withEvents(
    async (tx) => {
      const created = await tx.subscription.create({
        data: {
          id: newId("subscription"),
          ...tenantWhere(auth),
          projectId,
          productId: price.productId,
          providerId: price.businessId,
          priceId: price.id,
          status: "active",
          currentSlot: `${projectId}:${auth.environment}:${price.productId}`,
          currentPeriodStart: t,
          currentPeriodEnd: addInterval(t, plan.interval, 1),
          paymentMethod: (paymentMethod ?? undefined) as Prisma.InputJsonValue | undefined,
          metadata: (input.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
          createdAt: t,
          updatedAt: t,
        },
      });
      await emitSubscriptionEvent(created, "subscription.created", tx);
      return created;
    },
    { answer: serializeSubscription },
  ).catch((e) => {
    // Two subscribing at once: the unique current slot lets one in.
    if ((e as { code?: string }).code === "P2002")
      throw conflict("ALREADY_EXISTS", "priceId", "The project already subscribes to this product.");
    throw e;
  });
  invalidateBillingCache(projectId, auth.environment);
  return serializeSubscription(row);
}

export async function updateSubscription(auth: AuthContext, id: string, patch: z.infer<typeof SubscriptionUpdate>) {
  const current = await getSubscriptionOrThrow(auth, id);
  if (current.status === "canceled") throw conflict("STATE_CONFLICT", "status", "A canceled subscription cannot be changed.");
  const data: Prisma.SubscriptionUpdateInput = { updatedAt: now() };
  const previous: Record<string, unknown> = {};
  if (patch.priceId !== undefined && patch.priceId !== current.priceId) {
    const next = await subscribablePrice(auth, patch.priceId, "priceId");
    if (next.productId !== current.productId)
      throw invalidField("priceId", "A subscription changes to another price of the same product; subscribe to the other product instead.");
    data.pendingPriceId = patch.priceId;
    previous.pendingPriceId = current.pendingPriceId;
  } else if (patch.priceId === current.priceId && current.pendingPriceId) {
    data.pendingPriceId = null;
    previous.pendingPriceId = current.pendingPriceId;
  }
  if (patch.cancelAtPeriodEnd !== undefined) {
    data.cancelAtPeriodEnd = patch.cancelAtPeriodEnd;
    previous.cancelAtPeriodEnd = current.cancelAtPeriodEnd;
  }
  if (patch.paymentMethod) {
    data.paymentMethod = (await paymentProvider().attach(
      patch.paymentMethod,
      "paymentMethod",
      auth.businessId,
    )) as unknown as Prisma.InputJsonValue;
    previous.paymentMethod = serializeSubscription(current).paymentMethod;
  }
  if (patch.metadata) {
    data.metadata = patch.metadata;
    previous.metadata = current.metadata ?? {};
  }
  if (patch.spendCap !== undefined) {
    const cap = patch.spendCap;
    data.spendCap = cap
      ? {
          amount: exact(cap.amount),
          action: cap.action,
          thresholds: [...new Set(cap.thresholds ?? DEFAULT_THRESHOLDS)].sort((a, b) => a - b),
        }
      : dbNull;
    previous.spendCap = serializeSubscription(current).spendCap;
  }
  if (patch.autoRecharge !== undefined) {
    const a = patch.autoRecharge;
    if (a && !current.paymentMethod && !patch.paymentMethod)
      throw invalidField("autoRecharge", "Auto top-up charges the subscription's card, and it has none.", "Send paymentMethod with it.");
    data.autoRecharge = a ? { below: exact(a.below), amount: exact(a.amount), monthlyLimit: exact(a.monthlyLimit) } : dbNull;
    previous.autoRecharge = serializeSubscription(current).autoRecharge;
  }
  const row = await withEvents(
    async (tx) => {
      const updated = await tx.subscription.update({ where: { id: current.id }, data });
      await emitSubscriptionEvent(updated, "subscription.updated", tx, previous);
      return updated;
    },
    // With a new card, invoices waiting for it are charged after this commit; until then this is the answer.
    { answer: serializeSubscription },
  );
  invalidateBillingCache(row.projectId, row.environment);
  // A new card settles an invoice that is waiting for a retry at once, as Stripe does.
  if (patch.paymentMethod) {
    const waiting = await db.invoice.findMany({ where: { subscriptionId: row.id, status: "open" }, orderBy: { periodStart: "asc" } });
    for (const inv of waiting) await collectInvoice(inv.id);
    return serializeSubscription(await getSubscriptionOrThrow(auth, id));
  }
  return serializeSubscription(row);
}

export async function cancelSubscription(auth: AuthContext, id: string, atPeriodEnd: boolean) {
  const current = await getSubscriptionOrThrow(auth, id);
  if (current.status === "canceled") throw conflict("STATE_CONFLICT", "status", "The subscription is already canceled.");
  if (atPeriodEnd) {
    if (current.cancelAtPeriodEnd)
      throw conflict("STATE_CONFLICT", "atPeriodEnd", "The subscription is already set to cancel at the end of its period.");
    const row = await withEvents(
      async (tx) => {
        const updated = await tx.subscription.update({ where: { id: current.id }, data: { cancelAtPeriodEnd: true, updatedAt: now() } });
        await emitSubscriptionEvent(updated, "subscription.updated", tx, { cancelAtPeriodEnd: false });
        return updated;
      },
      { answer: serializeSubscription },
    );
    invalidateBillingCache(row.projectId, row.environment);
    return serializeSubscription(row);
  }
  // At once: the period so far is invoiced (usage, and the fixed fee prorated to the time used) and charged.
  // The canceled subscription is the answer from the commit on (the invoice's charge after it changes only the
  // invoice), so a retry after a crash replays it.
  const closed = await closePeriod(current, { endAt: now(), cancel: true, answer: serializeSubscription });
  if (!closed) throw conflict("STATE_CONFLICT", "status", "The subscription changed while canceling; read it again.");
  invalidateBillingCache(current.projectId, current.environment);
  if (closed.invoiceId) await collectInvoice(closed.invoiceId);
  return serializeSubscription(await getSubscriptionOrThrow(auth, id));
}
