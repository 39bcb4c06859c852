import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

// The official MCP SDK's server and Streamable HTTP transport, one pair per request (stateless: no session id, the
// answer as JSON rather than an SSE stream), as the SDK's stateless examples do. The low-level Server rather than
// McpServer: the tools' schemas are the product's JSON Schemas from its OpenAPI document, not zod schemas. The SDK is
// imported on the first MCP request (a dynamic import stays one in the data plane's bundle): a process that serves
// none never loads it.
//
// The transport is the SDK's Web-standard one, given the request as the little it reads of a Web `Request` (method,
// url, headers; the body already parsed) and its `Response` written out here. The SDK's node:http wrapper converts
// every request and answer through @hono/node-server instead: bench:mcp measured that conversion at about a tenth of
// a tool call's CPU.

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
    Transport: typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport;
    types: typeof import("@modelcontextprotocol/sdk/types.js");
    validator: InstanceType<typeof import("@modelcontextprotocol/sdk/validation/ajv").AjvJsonSchemaValidator>;
  }> | null = null;
  return () =>
    (loading ??= Promise.all([
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
      import("@modelcontextprotocol/sdk/types.js"),
      import("@modelcontextprotocol/sdk/validation/ajv"),
    ]).then(([server, http, types, ajv]) => ({
      Server: server.Server,
      Transport: http.WebStandardStreamableHTTPServerTransport,
      types,
      // One for the process: a Server makes its own Ajv instance otherwise (about a millisecond, per request here).
      validator: new ajv.AjvJsonSchemaValidator(),
    })));
})();

/** What the transport reads of a Web `Request`, over node's request: its method, URL and headers. */
function requestView(req: IncomingMessage, url: string): Request {
  const headers = {
    get: (name: string) => {
      const v = req.headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    },
    has: (name: string) => req.headers[name.toLowerCase()] !== undefined,
    *entries() {
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined) yield [k, Array.isArray(v) ? v.join(", ") : v] as [string, string];
    },
    forEach(fn: (value: string, key: string) => void) {
      for (const [k, v] of this.entries()) fn(v, k);
    },
  };
  return { method: req.method ?? "POST", url, headers } as unknown as Request;
}

export async function serveMcpRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  body: unknown,
  handlers: McpHandlers,
): Promise<void> {
  const { Server, Transport, types, validator } = await loadSdk();
  const server = new Server(
    { name: handlers.name, version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      jsonSchemaValidator: validator,
      ...(handlers.instructions ? { instructions: handlers.instructions } : {}),
    },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: await handlers.listTools() }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request) =>
    handlers.callTool(request.params.name, request.params.arguments),
  );
  const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  // Not closed afterwards: a stateless JSON answer leaves nothing open (no stream, no timer), and closing builds an
  // Error with its stack for the pending requests there are none of (about a twentieth of a request's CPU). The pair
  // is garbage once answered.
  const answer = await transport.handleRequest(requestView(req, url), { parsedBody: body });
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = await answer.text();
  if (!res.destroyed) {
    res.writeHead(answer.status, headers);
    res.end(text);
  }
}
