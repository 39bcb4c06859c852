import { z } from "zod";
import { positiveInt, text } from "./shared";

const between = (min: number, max: number) =>
  z
    .number()
    .superRefine((n, ctx) => {
      if (n < min || n > max) ctx.addIssue({ code: "custom", message: `must be between ${min} and ${max}`, input: n });
    })
    .meta({ minimum: min, maximum: max });

// AIModel: which model an agent runs on. The vendors are short lowercase names; `local` is a model served on
// the caller's own hardware, `custom` anything else (an OpenAI-compatible endpoint, a fine-tune host).

export const AI_PROVIDERS = ["openai", "anthropic", "google", "mistral", "cohere", "meta", "xai", "local", "custom"] as const;
export const AIProvider = z.enum(AI_PROVIDERS).meta({ id: "AIProvider", description: "Model vendor, or local / custom" });

export const AIModel = z
  .strictObject({
    provider: AIProvider,
    model: text(200).meta({ description: "The vendor's model name", example: "gpt-4o" }),
    version: text(100).optional(),
    temperature: between(0, 2).default(0.7),
    maxTokens: positiveInt(10_000_000).optional(),
    topP: between(0, 1).optional(),
    topK: positiveInt(100_000).optional(),
  })
  .meta({ id: "AIModel", description: "The model an agent runs on" });

export type AIModel = z.output<typeof AIModel>;
export type AIModelInput = z.input<typeof AIModel>;
