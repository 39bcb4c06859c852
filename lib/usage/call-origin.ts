import { z } from "zod";

// Which door a recorded call came through, read from its endpoint: the platform's own API, the gateway
// (/gw/{slug}) or a product's MCP server (/mcp/{slug}, whose calls' paths end in /tools/{tool}).

export const CALL_VIA = ["api", "gateway", "mcp"] as const;

export const callOriginFields = {
  via: z.enum(CALL_VIA).meta({ description: "Where the call came in: the platform's API, the gateway, or a product's MCP server." }),
  tool: z.string().nullable().meta({ description: "An MCP call's tool name; null otherwise." }),
};

export function callOrigin(endpoint: string, path: string): { via: (typeof CALL_VIA)[number]; tool: string | null } {
  if (endpoint.startsWith("/mcp/")) {
    const at = path.lastIndexOf("/tools/");
    return { via: "mcp", tool: at === -1 ? null : path.slice(at + "/tools/".length) };
  }
  return { via: endpoint.startsWith("/gw/") || endpoint === "/gw" ? "gateway" : "api", tool: null };
}
