import { z } from "zod";
import { Environment, Timestamp, shortText } from "./common";

export const PRODUCT_TYPES = ["SaaS", "API", "Data", "Headless"] as const;
export const ProductType = z.enum(PRODUCT_TYPES).meta({ id: "ProductType" });

export const ProductInterfaces = z
  .strictObject({
    hasAPI: z.boolean().optional(),
    hasRPC: z.boolean().optional(),
    hasMCP: z.boolean().optional(),
    hasSDK: z.boolean().optional(),
    hasCLI: z.boolean().optional(),
  })
  .meta({ id: "ProductInterfaces" });

const labels = z.array(z.string().trim().min(1).max(100)).max(50);

const writable = {
  name: shortText(200),
  type: ProductType,
  description: z.string().max(5000).nullable().optional(),
  isActive: z.boolean().optional(),
  industries: labels.optional(),
  productCategories: labels.optional(),
  interfaces: ProductInterfaces.optional(),
};

export const ProductCreate = z
  .strictObject({
    ...writable,
    business: z.string().max(255).optional().meta({ description: "The owning business; defaults to the API key's business." }),
  })
  .meta({ id: "ProductCreate" });

export const ProductUpdate = z
  .strictObject({
    name: writable.name.optional(),
    type: ProductType.optional(),
    description: writable.description,
    isActive: writable.isActive,
    industries: writable.industries,
    productCategories: writable.productCategories,
    interfaces: writable.interfaces,
  })
  .meta({ id: "ProductUpdate" });

export const BusinessRef = z.object({ id: z.string(), name: z.string() }).meta({ id: "BusinessRef" });

export const Product = z
  .object({
    id: z.string().meta({ example: "prod_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    name: z.string(),
    type: ProductType,
    business: z.union([z.string(), BusinessRef]).meta({ description: "The business id, or {id, name} with expand=business." }),
    description: z.string().nullable(),
    isActive: z.boolean(),
    environment: Environment,
    industries: z.array(z.string()),
    productCategories: z.array(z.string()),
    interfaces: ProductInterfaces,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Product" });

export type ProductCreate = z.infer<typeof ProductCreate>;
export type ProductUpdate = z.infer<typeof ProductUpdate>;
