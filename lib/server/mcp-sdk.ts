import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

// The official MCP SDK's server and Streamable HTTP transport, one pair per request (stateless: no session id, the
// answer as JSON rather than an SSE stream), as the SDK's stateless examples do. The low-level Server rather than
// McpServer: the tools' schemas are the product's JSON Schemas from its OpenAPI document, not zod schemas. The SDK is
// imported on the first MCP request (a dynamic import stays one in the data plane's bundle): a process that serves
// none never loads it.

export interface McpHandlers {
  name: string;
  instructions: string | undefined;
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult>;
}

const VERSION = "1.0.0";

const loadSdk = (() => {
  let loading: Promise<{
    Server: typeof import("@modelcontextprotocol/sdk/server/index.js").Server;
    Transport: typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js").StreamableHTTPServerTransport;
    types: typeof import("@modelcontextprotocol/sdk/types.js");
  }> | null = null;
  return () =>
    (loading ??= Promise.all([
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]).then(([server, http, types]) => ({ Server: server.Server, Transport: http.StreamableHTTPServerTransport, types })));
})();

export async function serveMcpRequest(req: IncomingMessage, res: ServerResponse, body: unknown, handlers: McpHandlers): Promise<void> {
  const { Server, Transport, types } = await loadSdk();
  const server = new Server(
    { name: handlers.name, version: VERSION },
    { capabilities: { tools: { listChanged: false } }, ...(handlers.instructions ? { instructions: handlers.instructions } : {}) },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: await handlers.listTools() }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request) =>
    handlers.callTool(request.params.name, request.params.arguments),
  );
  const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
