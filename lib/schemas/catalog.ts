import { z } from "zod";
import { Timestamp } from "./common";
import { Feature } from "./feature";
import { Price } from "./price";
import { BusinessRef, ProductType } from "./product";

// The catalogue's product (public, active products of every business) and a provider's views of its customers
// and revenue.

export const CatalogProduct = z
  .object({
    id: z.string(),
    object: z.literal("catalog_product"),
    name: z.string(),
    type: ProductType,
    slug: z.string().nullable(),
    description: z.string().nullable(),
    provider: BusinessRef,
    industries: z.array(z.string()),
    productCategories: z.array(z.string()),
    features: z.array(Feature),
    prices: z.array(Price).meta({ description: "Active prices only: the plans a consumer can choose, with their limits." }),
    api: z.object({ openapiUrl: z.string().nullable(), hasOpenapiDocument: z.boolean() }).nullable(),
    publishedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "CatalogProduct" });

export const CatalogProductParams = z.object({ id: z.string().meta({ description: "A product id or slug" }) });

const CustomerSubscription = z.object({
  id: z.string(),
  productId: z.string(),
  priceId: z.string(),
  status: z.string(),
  currentPeriodStart: Timestamp,
  currentPeriodEnd: Timestamp,
  cancelAtPeriodEnd: z.boolean(),
  paymentMethod: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  periodCalls: z.number().int().meta({ description: "Units counted in the running period." }),
  periodAmount: z.number().int().meta({ description: "The running period's amount so far, in the minor unit." }),
  periodAmountDecimal: z.string(),
  currency: z.string().nullable(),
  createdAt: Timestamp,
});

export const Customer = z
  .object({
    id: z.string().meta({ description: "The customer's business id" }),
    object: z.literal("customer"),
    name: z.string(),
    subscriptions: z.array(CustomerSubscription).meta({ description: "Its subscriptions to your products only." }),
    periodCalls: z.number().int(),
    since: Timestamp,
    invoices: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .meta({ description: "Its invoices for your products (GET /customers/{id} only)." }),
  })
  .meta({ id: "Customer" });

export const CustomerUsageQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

export const CustomerUsage = z
  .object({
    customer: z.string(),
    from: Timestamp,
    to: Timestamp,
    products: z.array(
      z.object({ productId: z.string(), calls: z.number().int(), units: z.number().int(), errors: z.number().int(), cost: z.number() }),
    ),
  })
  .meta({ id: "CustomerUsage" });

export const RevenueQuery = z.strictObject({ months: z.coerce.number().int().min(1).max(36).optional() });

export const Revenue = z
  .object({
    object: z.literal("revenue"),
    months: z.number().int(),
    data: z.array(
      z.object({
        productId: z.string(),
        productName: z.string(),
        month: z.string().meta({ example: "2026-11" }),
        currency: z.string(),
        invoiced: z.number().int().meta({ description: "Finalised invoices, minor unit" }),
        paid: z.number().int(),
        upcoming: z.number().int().meta({ description: "Running periods rated so far, minor unit" }),
        total: z.number().int(),
        totalDecimal: z.string(),
        customers: z.number().int(),
      }),
    ),
  })
  .meta({ id: "Revenue" });

export const GatewaySecret = z
  .object({
    object: z.literal("gateway_secret"),
    productId: z.string(),
    gatewaySecret: z.string().meta({ description: "gws_… : shown this once" }),
    previousSecretExpiresAt: Timestamp.meta({ description: "Until then the previous secret signs beside the new one." }),
  })
  .meta({ id: "GatewaySecret" });

export const CallStatsQuery = z.strictObject({ period: z.enum(["day", "week"]).optional() });

export const ProductCallStats = z
  .object({
    object: z.literal("product_call_stats"),
    productId: z.string(),
    period: z.enum(["day", "week"]),
    from: Timestamp,
    to: Timestamp,
    calls: z.number().int(),
    errors: z.number().int(),
    serverErrors: z.number().int(),
    revenue: z.number().meta({ description: "Sum of the calls' rated costs (major unit)" }),
    latencyMs: z.object({ p50: z.number().nullable(), p99: z.number().nullable() }).meta({ description: "Gateway calls, end to end" }),
    topConsumers: z.array(z.object({ businessId: z.string(), name: z.string(), calls: z.number().int() })),
    circuit: z.object({ state: z.enum(["closed", "open", "half_open"]), consecutiveFailures: z.number().int() }),
  })
  .meta({ id: "ProductCallStats" });
