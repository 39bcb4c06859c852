import { z } from "zod";
import { positiveInt, text } from "./shared";

export const MEMORY_TYPES = ["none", "session", "persistent", "vector"] as const;

export const AgentMemory = z
  .strictObject({
    type: z.enum(MEMORY_TYPES).default("session"),
    maxTokens: positiveInt(10_000_000).optional(),
    vectorStore: text(500).optional().meta({ description: "Name or URL of the vector store (type 'vector')" }),
    windowSize: positiveInt(100_000).optional().meta({ description: "Conversation turns kept" }),
  })
  .meta({ id: "AgentMemory", description: "What an agent remembers between turns" });

export type AgentMemory = z.output<typeof AgentMemory>;
