import type { JsonSchema } from "./openapi-tools";

// What a product portal's "Use with AI agents" page (/p/{slug}/mcp) shows a subscriber: how to point common MCP
// clients at the product's server, and a first set of arguments for a tool, made from its inputSchema. Pure, so the
// page and its unit test read the same text.

export interface ClientSnippet {
  id: "claude-code" | "json" | "vscode" | "typescript";
  label: string;
  /** Where the text goes, in a sentence. */
  where: string;
  language: "shell" | "json" | "typescript";
  code: string;
}

/** The server's name in a client's configuration: the product slug (letters, digits and '-', as slugs are). */
export const mcpServerName = (slug: string) => slug.replace(/[^a-z0-9-]/gi, "-").slice(0, 63) || "api";

/** Configuration for Claude Code, Claude Desktop / Cursor (mcpServers), VS Code (servers) and the SDK's TypeScript client. */
export function mcpClientSnippets(input: { url: string; slug: string; key?: string }): ClientSnippet[] {
  const name = mcpServerName(input.slug);
  const key = input.key ?? "sk_test_…";
  const server = { type: "http", url: input.url, headers: { Authorization: `Bearer ${key}` } };
  return [
    {
      id: "claude-code",
      label: "Claude Code",
      where: "Run in a terminal.",
      language: "shell",
      code: `claude mcp add --transport http ${name} ${input.url} \\\n  --header "Authorization: Bearer ${key}"`,
    },
    {
      id: "json",
      label: "Claude Desktop · Cursor",
      where: "Add to claude_desktop_config.json or .cursor/mcp.json.",
      language: "json",
      code: JSON.stringify({ mcpServers: { [name]: server } }, null, 2),
    },
    {
      id: "vscode",
      label: "VS Code",
      where: "Add to .vscode/mcp.json.",
      language: "json",
      code: JSON.stringify({ servers: { [name]: server } }, null, 2),
    },
    {
      id: "typescript",
      label: "TypeScript (MCP SDK)",
      where: "npm install @modelcontextprotocol/sdk, then:",
      language: "typescript",
      code: [
        `import { Client } from "@modelcontextprotocol/sdk/client/index.js";`,
        `import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";`,
        ``,
        `const client = new Client({ name: "my-agent", version: "1.0.0" });`,
        `await client.connect(`,
        `  new StreamableHTTPClientTransport(new URL(${JSON.stringify(input.url)}), {`,
        `    requestInit: { headers: { Authorization: \`Bearer \${process.env.API_KEY}\` } },`,
        `  }),`,
        `);`,
        `const { tools } = await client.listTools();`,
      ].join("\n"),
    },
  ];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A first value for each property of a tool's inputSchema, for the try-a-tool form: the schema's example, default or
 * first enum value when it gives one, else an empty value of its type. Optional properties are left out, so the
 * form starts with what the tool needs.
 */
export function exampleArguments(schema: JsonSchema): Record<string, unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) if (required.has(name) && isObject(prop)) out[name] = exampleValue(prop, 0);
  return out;
}

function exampleValue(schema: Record<string, unknown>, depth: number): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return depth < 4 ? exampleArguments(schema) : {};
    default:
      return isObject(schema.properties) && depth < 4 ? exampleArguments(schema) : null;
  }
}

/** The JSON-RPC body of one `tools/call`, as the try-a-tool form sends it to /mcp/{slug}. */
export const toolCallBody = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0" as const,
  id,
  method: "tools/call" as const,
  params: { name, arguments: args },
});

/** The headers the MCP endpoint needs from a browser's fetch (Streamable HTTP, protocol 2025-11-25). */
export const mcpRequestHeaders = (key: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
  authorization: `Bearer ${key}`,
});
