// bench:mcp's in-process part: what the MCP SDK's server and transport cost a request by themselves, with a tool
// whose handler answers at once (no upstream, no pipeline), beside JSON.parse/stringify of the same messages. Prints
// one JSON line: µs a tools/call through lib/server/mcp-sdk.ts and µs for the bare JSON work.
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveMcpRequest } from "@/lib/server/mcp-sdk";

const N = Number(process.env.BENCH_MCP_SDK_CALLS ?? 20_000);
const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "getForecast", arguments: { city: "Oslo" } } };
const text = JSON.stringify(body);
const req = {
  method: "POST",
  url: "/mcp/bench",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
} as unknown as IncomingMessage;
let written = "";
const res = {
  destroyed: false,
  writeHead() {
    return this;
  },
  end(chunk: string) {
    written = chunk;
  },
  setHeader() {},
} as unknown as ServerResponse;
const handlers = {
  name: "Bench",
  instructions: undefined,
  listTools: async () => [],
  callTool: async () => ({ content: [{ type: "text" as const, text: '{"ok":true}' }], structuredContent: { ok: true } }),
};

async function main() {
  for (let i = 0; i < 2000; i++) await serveMcpRequest(req, res, "http://x/mcp/bench", JSON.parse(text), handlers);
  if (!written.includes('"structuredContent"')) throw new Error(`unexpected answer: ${written}`);
  let t = performance.now();
  for (let i = 0; i < N; i++) await serveMcpRequest(req, res, "http://x/mcp/bench", JSON.parse(text), handlers);
  const sdkUs = ((performance.now() - t) * 1000) / N;
  t = performance.now();
  for (let i = 0; i < N; i++) {
    const m = JSON.parse(text);
    written = JSON.stringify({ jsonrpc: "2.0", id: m.id, result: await handlers.callTool() });
  }
  const bareUs = ((performance.now() - t) * 1000) / N;
  console.log(JSON.stringify({ calls: N, sdkUsPerCall: sdkUs, bareJsonUsPerCall: bareUs }));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
