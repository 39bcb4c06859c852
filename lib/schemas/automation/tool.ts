import { z } from "zod";
import { ToolParameter } from "./tool-parameter";
import { document, jsonObject, jsonValue, names, patchShape, prose, RateLimit, recordShape, resourceId, text, uniqueCheck } from "./shared";

// Tool: something an agent can call. Tools have `$id` but no `$type` (the spec's one exception).

export const TOOL_CATEGORIES = [
  "data",
  "communication",
  "file",
  "web",
  "code",
  "database",
  "ai",
  "integration",
  "system",
  "custom",
] as const;

export const toolShape = {
  $id: resourceId(),
  name: text(200),
  description: prose(10_000),
  category: z.enum(TOOL_CATEGORIES).optional(),
  parameters: z.array(ToolParameter).max(100),
  returns: z.strictObject({ type: text(100), description: prose(2_000) }).optional(),
  permissions: names().optional(),
  rateLimit: RateLimit.optional(),
  requiresConfirmation: z.boolean().default(false),
  dangerous: z.boolean().default(false),
  examples: z
    .array(z.strictObject({ input: jsonObject("Arguments"), output: jsonValue().optional() }))
    .max(50)
    .optional(),
};

const ToolObject = z.strictObject(toolShape).superRefine((t, ctx) => {
  uniqueCheck(
    ctx,
    t.parameters.map((p) => p.name),
    (i) => ["parameters", i, "name"],
    "the parameter name",
  );
});
export const Tool = document(ToolObject).meta({
  id: "Tool",
  description: "A tool agents call (no $type). The runtime-validation schema of the kind, and the body of POST /v1/tools.",
});
export const ToolUpdate = document(z.strictObject(patchShape(toolShape))).meta({ id: "ToolUpdate" });
export const ToolRecord = z.object(recordShape(toolShape, "Tool", false, "tool_01JD2Y7X3Q9W6E8R4T5Y7U9I0P")).meta({ id: "ToolRecord" });

export type Tool = z.output<typeof Tool>;
export type ToolInput = z.input<typeof ToolObject>;
