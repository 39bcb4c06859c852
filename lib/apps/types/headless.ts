import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, text, type AppTypeMeta } from "./fields";

// Headless: an API-first backend with no UI of its own.

export const HEADLESS_PROTOCOLS = ["rest", "graphql", "grpc", "websocket"] as const;

export const HeadlessConfig = z.object({
  showMCPServers: flag(),
  showAgents: flag(),
  showPlayground: flag(),
  showSchema: flag(),
  graphqlEndpoint: text(),
  restEndpoint: text(),
  protocols: z.array(z.enum(HEADLESS_PROTOCOLS)).max(HEADLESS_PROTOCOLS.length).default([]),
});

export const HeadlessApp = z.object({
  ...baseApp({
    views: ["servers", "agents", "playground", "schema", "docs"],
    panels: ["api-status", "recent-requests", "schema-explorer"],
  }),
  type: z.literal("Headless").default("Headless"),
  config: HeadlessConfig.prefault({}),
});
export type HeadlessApp = z.infer<typeof HeadlessApp>;

export const headlessMeta: AppTypeMeta = {
  description: "An API-first backend with no UI of its own: endpoints, MCP servers, agents and the schema.",
  views: {
    servers: "The MCP servers this backend exposes and the tools each one offers.",
    agents: "The AI agents that call this backend, with their permissions.",
    playground: "Send REST or GraphQL requests and read the responses.",
    schema: "The data schema: its types, fields and relations.",
    docs: "Reference documentation for every endpoint and protocol.",
  },
  panels: {
    "api-status": "Availability and latency of each endpoint (REST, GraphQL, gRPC, WebSocket).",
    "recent-requests": "The latest requests with protocol, operation, status and duration.",
    "schema-explorer": "A browsable tree of the schema's types and fields.",
  },
};
