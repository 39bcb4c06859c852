import { db } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { withEvents } from "@/lib/events/emit-event";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";

import { tenantWhere } from "@/lib/http/tenant";

import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { CURRENCIES, PRICE_TYPES, type PriceCreate, type PriceUpdate } from "@/lib/schemas/price";
import { dbNull } from "@/lib/db/client";
import { announce } from "@/lib/redis/bus";
import { BILLING_CHANGED } from "@/lib/redis/topics";

// Every project's rating and entitlement cache reads its subscriptions again ("*").
const onPlanChanged = () => announce(BILLING_CHANGED, "*");
import { invalidField } from "@/lib/http/errors";
import { compilePrice } from "@/lib/billing/price-plan";
import { getProductOrThrow } from "./get-product-or-throw";
import { serializePrice } from "./serialize";

export const PRICE_COLLECTION: CollectionSpec = {
  filters: {
    id: { type: "string" },
    name: { type: "string" },
    type: { type: "enum", values: PRICE_TYPES },
    currency: { type: "enum", values: CURRENCIES },
    amount: { type: "number" },
    isActive: { type: "boolean" },
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
  },
  sortable: ["createdAt", "updatedAt", "name", "id"],
  fields: [
    "productId",
    "name",
    "type",
    "currency",
    "amount",
    "interval",
    "includedQuantity",
    "minVolume",
    "description",
    "tiers",
    "tiersMode",
    "baseSubscription",
    "overageRate",
    "metrics",
    "isActive",
    "environment",
    "createdAt",
    "updatedAt",
  ],
};

const prices = tenantResource<Parameters<typeof serializePrice>[0]>({
  model: () => db.price,
  idKind: "price",
  label: "price",
  collection: PRICE_COLLECTION,
  serialize: serializePrice,
});

export async function listPrices(auth: AuthContext, productId: string, query: CollectionQuery) {
  const product = await getProductOrThrow(auth, productId);
  return prices.list(auth, query, { productId: product.id });
}

export async function createPrice(auth: AuthContext, productId: string, input: PriceCreate) {
  const product = await getProductOrThrow(auth, productId);
  if (input.billing === "prepaid" && input.maxCostPerCall === undefined) {
    // A prepaid call reserves its cost before it runs: a cost measured from the answer needs a stated ceiling.
    const plan = compilePrice({
      id: "",
      ...input,
      amount: input.amount ?? null,
      includedQuantity: null,
      minVolume: null,
      tiers: input.tiers ?? null,
      baseSubscription: input.baseSubscription ?? null,
      overageRate: input.overageRate ?? null,
      metrics: input.metrics ?? null,
    });
    if (plan.usage.some((c) => c.measure !== "requests" && c.measure !== "none"))
      throw invalidField(
        "maxCostPerCall",
        "A prepaid price measured by bytes, tokens or compute needs 'maxCostPerCall': what a call reserves before its answer is known.",
      );
  }
  const t = now();
  // In a transaction (with no event) so that an Idempotency-Key's record commits with it (lib/db/commit-hook.ts).
  const row = await withEvents(
    (tx) =>
      tx.price.create({
        data: {
          id: newId("price"),
          ...tenantWhere(auth),
          productId: product.id,
          name: input.name,
          type: input.type,
          currency: input.currency,
          amount: input.amount ?? null,
          interval: input.interval ?? (input.type === "usage" ? "request" : (input.baseSubscription?.interval ?? null)),
          includedQuantity: input.includedQuantity ?? null,
          minVolume: input.minVolume ?? null,
          description: input.description ?? null,
          // "inf" and null both mean the unbounded last tier; stored as null.
          tiers: input.tiers?.map((tier) => ({ ...tier, upTo: tier.upTo === "inf" ? null : tier.upTo })) ?? undefined,
          tiersMode: input.tiers ? (input.tiersMode ?? "graduated") : null,
          baseSubscription: input.baseSubscription ?? undefined,
          overageRate: input.overageRate ?? null,
          metrics: input.metrics ?? undefined,
          rateLimit: input.rateLimit ?? undefined,
          monthlyQuota: input.monthlyQuota ?? null,
          billFailedCalls: input.billFailedCalls ?? false,
          onLimiterOutage: input.onLimiterOutage ?? "open",
          billing: input.billing ?? "postpaid",
          maxCostPerCall: input.maxCostPerCall ?? null,
          isActive: input.isActive ?? true,
          createdAt: t,
          updatedAt: t,
        },
      }),
    { answer: serializePrice },
  );
  return serializePrice(row);
}

export const getPriceOrThrow = (auth: AuthContext, id: string) => prices.getOrThrow(auth, id);

export async function updatePrice(auth: AuthContext, id: string, patch: PriceUpdate) {
  const current = await getPriceOrThrow(auth, id);
  const { rateLimit, ...rest } = patch;
  const data = { ...rest, ...(rateLimit !== undefined ? { rateLimit: rateLimit ?? dbNull } : {}), updatedAt: now() };
  const row = await db.price.update({ where: { id: current.id }, data });
  // Subscribers' entitlements carry the plan's limits: they are read again at once.
  onPlanChanged();
  return serializePrice(row);
}

export async function deletePrice(auth: AuthContext, id: string) {
  const current = await getPriceOrThrow(auth, id);
  await db.price.delete({ where: { id: current.id } });
}
