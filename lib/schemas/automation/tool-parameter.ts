import { z } from "zod";
import { jsonObject, jsonValue, prose, text } from "./shared";

// ToolParameter: one argument of a tool. A default must fit the parameter's type (and its enum, if any).

export const PARAMETER_TYPES = ["string", "number", "boolean", "object", "array"] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

const fits: Record<ParameterType, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
};

export const ToolParameter = z
  .strictObject({
    name: text(100),
    type: z.enum(PARAMETER_TYPES),
    description: prose(2_000),
    required: z.boolean().default(true),
    default: jsonValue().optional(),
    enum: z.array(z.string().max(500)).min(1, "must list at least one value").max(500).optional(),
    schema: jsonObject("JSON Schema of an object or array parameter").optional(),
  })
  .superRefine((p, ctx) => {
    if (p.enum !== undefined && p.type !== "string") {
      ctx.addIssue({
        code: "custom",
        path: ["enum"],
        message: `only string parameters can list values; this parameter's type is '${p.type}'`,
        input: p.enum,
      });
    }
    if (p.default !== undefined) {
      if (!fits[p.type](p.default)) {
        ctx.addIssue({
          code: "custom",
          path: ["default"],
          message: `must be a ${p.type} for a parameter of type '${p.type}'`,
          input: p.default,
        });
      } else if (p.enum && !p.enum.includes(p.default as string)) {
        ctx.addIssue({
          code: "custom",
          path: ["default"],
          message: `must be one of the parameter's enum values (${p.enum.slice(0, 10).join(", ")})`,
          input: p.default,
        });
      }
    }
  })
  .meta({ id: "ToolParameter", description: "An argument of a tool" });

export type ToolParameter = z.output<typeof ToolParameter>;
