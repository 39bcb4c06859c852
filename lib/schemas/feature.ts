import { z } from "zod";
import { Environment, Timestamp, shortText } from "./common";

const FeatureValue = z.union([z.boolean(), z.number(), z.string().max(500)]).nullable();

export const FeatureCreate = z
  .strictObject({
    name: shortText(200),
    description: z.string().max(5000).nullable().optional(),
    key: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_.-]{0,99}$/, "must be lower-case letters, digits, '_', '.' or '-'")
      .optional(),
    value: FeatureValue.optional().meta({ description: "What the product offers for this feature: a flag, a number or a text." }),
  })
  .meta({ id: "FeatureCreate" });

export const FeatureUpdate = FeatureCreate.partial().meta({ id: "FeatureUpdate" });

export const Feature = z
  .object({
    id: z.string().meta({ example: "feat_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    productId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    key: z.string().nullable(),
    value: FeatureValue,
    environment: Environment,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Feature" });

export type FeatureCreate = z.infer<typeof FeatureCreate>;
export type FeatureUpdate = z.infer<typeof FeatureUpdate>;
