import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { now } from "@/lib/clock";
import { NodeHeaders } from "@/lib/http/header-reader";
import { baseUrlFor } from "@/lib/http/public-base-url";
import { defineRoute } from "@/lib/http/route";
import { ApiError } from "@/lib/http/errors";
import { readNodeText } from "@/lib/http/read-body";
import { entitlementFor } from "@/lib/billing/entitlement";
import { rateProductCall } from "@/lib/billing/rate-request";
import { nanosToNumber } from "@/lib/billing/money";
import { requestUpstream, upstreamTarget, type BufferedResult } from "@/lib/gateway/proxy";
import { admitCall, recordOutcome } from "@/lib/gateway/circuit-breaker";
import { circuitOpen, faultStatus, upstreamFailed } from "@/lib/gateway/upstream-errors";
import { journalRequest, recordRequest, type RequestRecord } from "@/lib/usage/recorder";
import type { McpTool } from "@/lib/mcp/openapi-tools";
import { ToolArgumentError, toolRequest } from "@/lib/mcp/tool-request";
import { toolResult, refusalResult } from "@/lib/mcp/tool-result";
import { assertTokenResource } from "@/lib/oauth/resource-binding";
import { bearerChallenge } from "@/lib/oauth/protected-resource";
import { mcpResourceUrl } from "@/lib/oauth/mcp-resource";
import { paidByCredits } from "@/lib/billing/spend-guard";
import { meterFor } from "@/lib/gateway/answer-meter";
import { createRequestContext, type RequestContext } from "./request-context";
import { runPipeline, type Pipeline } from "./pipeline";
import { identifyRequest } from "./steps/identify";
import { checkRestrictions } from "./steps/restrictions";
import { mapError } from "./steps/map-error";
import {
  authenticateGatewayCall,
  checkEntitlement,
  checkPlanLimits,
  holdCallSpend,
  measuredWithinBudget,
  releaseCallSpend,
  resolveGatewayProduct,
  settleCallSpend,
} from "./steps/gateway";
import { writeAnswer } from "./write-answer";
import { signedUpstreamHeaders } from "./upstream-headers";
import { serveMcpRequest } from "./mcp-sdk";

// {base}/mcp/{slug}: the product as an MCP server (Streamable HTTP, the official SDK's server and transport, stateless:
// every POST is answered on its own, as JSON). The session request runs the gateway's own first steps (request id,
// credential, key restrictions, the product by slug); `initialize` and `tools/list` are then answered without
// rating. Each `tools/call` is a gateway call of its own: a request context of its own through the entitlement and
// plan-limit steps, the arguments made into the operation's request, sent signed to the upstream, rated
// (X-Request-Cost) and recorded for both sides as `/mcp/{slug}` with the tool's name.

export const MCP_PATH = /^\/mcp\/[^/?#]+\/?(?:[?#]|$)/;
const PARTS = /^\/mcp\/([^/?#]+)/;
/** The most of an upstream's answer a tool result carries. */
const MAX_BODY_BYTES = 1_000_000;

const MCP_ROUTE = defineRoute({
  method: "POST",
  path: "/mcp/{slug}",
  summary: "The product's MCP server (Streamable HTTP)",
  tag: "MCP",
  response: { kind: "raw", description: "JSON-RPC answers" },
  handler: async () => null,
});

const TOOL_ROUTE = defineRoute({
  method: "POST",
  path: "/mcp/{slug}/tools/{tool}",
  summary: "An MCP tool call, sent to the product's upstream",
  tag: "MCP",
  response: { kind: "raw", description: "The tool's result" },
  handler: async () => null,
});

interface McpCall {
  req: IncomingMessage;
  res: ServerResponse;
  slug: string;
}
interface McpContext extends RequestContext {
  mcpCall: McpCall;
}

/** The session's last step: the JSON-RPC request handed to the SDK's server, with this caller's tools. */
async function serveProtocol(ctx: RequestContext): Promise<void> {
  const { req, res } = (ctx as McpContext).mcpCall;
  const product = ctx.gatewayProduct!;
  if (req.method !== "POST") {
    // Stateless: no stream for server-initiated messages, no session to delete.
    throw new ApiError({
      status: 405,
      type: "validation_error",
      code: "METHOD_NOT_ALLOWED",
      message: "This MCP server answers POST only (Streamable HTTP without sessions).",
      headers: { Allow: "POST" },
    });
  }
  let parsed: unknown;
  const text = await readNodeText(req);
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    ctx.response = jsonRpcError(400, -32700, `Parse error: ${(e as Error).message}`);
    return;
  }
  const session = { ctx, product, res };
  const initializing = (parsed as { method?: unknown } | null)?.method === "initialize";
  await serveMcpRequest(req, res, `${ctx.request.baseUrl}${req.url ?? "/"}`, parsed, {
    name: product.name,
    // Only `initialize` answers with instructions: other requests do not pay for the entitlement check they need.
    instructions: initializing ? await instructionsFor(session) : undefined,
    listTools: () => visibleTools(session),
    callTool: (name, args) => callTool(session, name, args),
  });
  // Answered by the SDK: recorded as the session request it was (not rated).
  ctx.response = { status: res.statusCode, headers: {}, body: null };
}

interface Session {
  ctx: RequestContext;
  product: NonNullable<RequestContext["gatewayProduct"]>;
  res: ServerResponse;
}

const jsonRpcError = (status: number, code: number, message: string) => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }),
});

/** May the caller call this product now (its key's scopes, its subscription)? The quota is a tool call's matter. */
async function entitled(session: Session): Promise<{ ok: boolean; message: string }> {
  const ent = await entitlementFor(session.ctx.auth!, session.product.id, session.ctx.at.getTime());
  return { ok: ent.allowed || ent.code === "QUOTA_EXCEEDED", message: ent.message };
}

async function instructionsFor(session: Session): Promise<string> {
  const { product, ctx } = session;
  const e = await entitled(session);
  const base = `${product.name}, served by this platform's gateway. Each tool call is an API call of your subscription: rated, limited by your plan and billed.`;
  return e.ok ? base : `${base} You cannot call it yet: ${e.message} Subscribe at ${ctx.request.baseUrl}/p/${product.slug}.`;
}

const wireTool = (t: McpTool): Tool => ({
  name: t.name,
  description: t.description,
  inputSchema: t.inputSchema as Tool["inputSchema"],
  ...(t.outputSchema ? { outputSchema: t.outputSchema as Tool["outputSchema"] } : {}),
  annotations: t.annotations,
});

async function visibleTools(session: Session): Promise<Tool[]> {
  if (!(await entitled(session)).ok) return [];
  return session.product.mcpTools().map(wireTool);
}

interface ToolContext extends RequestContext {
  tool: McpTool;
  toolArgs: Record<string, unknown> | undefined;
  upstream: BufferedResult | null;
  /** Units measured from the tool call's request and answer (a price's measured metrics). */
  quantities?: Record<string, number> | null;
  mcpSession: Session;
}

async function callTool(session: Session, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const { ctx: sessionCtx, product } = session;
  const tool = product.mcpTools().find((t) => t.name === name);
  if (!tool) return { isError: true, content: [{ type: "text", text: `There is no tool '${name.slice(0, 100)}' on ${product.name}.` }] };
  const ctx = createRequestContext(sessionCtx.request, TOOL_ROUTE, { slug: product.slug, tool: name }, now()) as ToolContext;
  Object.assign(ctx, { auth: sessionCtx.auth, gatewayProduct: product, tool, toolArgs: args, upstream: null, mcpSession: session });
  const answer = await runPipeline(ctx, TOOL_PIPELINE);
  if (ctx.cost !== null && ctx.headers["X-Request-Cost"]) session.res.setHeader("X-Request-Cost", ctx.headers["X-Request-Cost"]);
  const meta = { requestId: ctx.requestId, ...(ctx.headers["X-Request-Cost"] ? { cost: ctx.headers["X-Request-Cost"] } : {}) };
  if (ctx.upstream && !ctx.upstream.fault) return toolResult(ctx.upstream, meta) as CallToolResult;
  return refusalResult(answer, ctx.error, { baseUrl: ctx.request.baseUrl, slug: product.slug }, meta) as CallToolResult;
}

/** Tool-call step: the arguments as the operation's request, sent signed to the upstream, read, rated. */
async function callUpstream(ctx: RequestContext): Promise<void> {
  const tc = ctx as ToolContext;
  const product = ctx.gatewayProduct!;
  const sub = ctx.subscription!;
  let request;
  try {
    request = toolRequest(tc.tool, tc.toolArgs);
  } catch (e) {
    if (e instanceof ToolArgumentError)
      throw new ApiError({ status: 400, type: "validation_error", code: "INVALID_TOOL_ARGUMENTS", message: e.message });
    throw e;
  }
  const target = upstreamTarget(ctx.auth!.environment === "production" ? product.live : product.sandbox, request.pathWithQuery);
  const { req } = (tc.mcpSession.ctx as McpContext).mcpCall;
  const base: Record<string, string> = {
    ...request.headers,
    accept: "application/json, text/plain;q=0.9, */*;q=0.5",
    "user-agent": String(req.headers["user-agent"] ?? "mcp-client"),
  };
  if (request.body) base["content-length"] = String(request.body.length);
  const forwardedFor = req.headers["x-forwarded-for"];
  const headers = signedUpstreamHeaders(ctx, target, base, {
    address: req.socket.remoteAddress,
    forwardedFor: typeof forwardedFor === "string" ? forwardedFor : undefined,
  });
  headers.push("x-platform-via", "mcp", "x-platform-tool", tc.tool.name);
  if (!admitCall(product.id)) throw circuitOpen();
  const result = await requestUpstream({
    target,
    method: request.method,
    headers,
    timeoutMs: product.timeoutMs,
    body: request.body,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  tc.upstream = result;
  if (result.fault) recordOutcome(product.id, false);
  else recordOutcome(product.id, (result.status ?? 502) < 500);
  const status = result.fault ? faultStatus(result.fault) : result.status!;
  // A price's measured metrics read the tool call's request and answer, as on /gw (here the answer is buffered).
  const meter = meterFor(sub.plan);
  if (meter && !result.fault) {
    if (request.body) meter.request(request.body);
    meter.headers(result.responseHeaders);
    meter.response(result.body);
    tc.quantities = measuredWithinBudget(ctx, meter.finish());
  }
  const rated = await rateProductCall(sub, {
    at: ctx.at,
    statusCode: status,
    bytes: result.requestBytes + result.responseBytes,
    computeMs: 0,
    quantities: tc.quantities ?? null,
  });
  settleCallSpend(ctx, rated?.nanos ?? null);
  if (rated) {
    ctx.cost = nanosToNumber(rated.nanos);
    ctx.headers["X-Request-Cost"] = `${rated.decimal} ${rated.currency}`;
  }
  if (result.fault) throw upstreamFailed(result.fault, result.faultMessage);
  const journaled = journalRequest(toolRecord(ctx, status));
  if (journaled) await journaled;
  ctx.response = { status, headers: result.responseHeaders, body: null };
}

/** A tool call's record: endpoint `/mcp/{slug}`, path `/mcp/{slug}/tools/{tool}`, for both sides. */
function toolRecord(ctx: RequestContext, statusCode: number): RequestRecord {
  const tc = ctx as ToolContext;
  const product = ctx.gatewayProduct!;
  const up = tc.upstream;
  return {
    requestId: ctx.requestId,
    at: ctx.at,
    auth: ctx.auth!,
    method: tc.tool.binding.method,
    endpoint: `/mcp/${product.slug}`,
    path: `/mcp/${product.slug}/tools/${tc.tool.name}`,
    statusCode,
    errorType: ctx.error?.code ?? null,
    latencyMs: performance.now() - ctx.started,
    computeMs: 0,
    requestBytes: up?.requestBytes ?? 0,
    responseBytes: up?.responseBytes ?? 0,
    ip: ctx.ip,
    userAgent: ctx.request.headers.get("user-agent"),
    requestHeaders: ctx.request.headers,
    requestBody: JSON.stringify({ tool: tc.tool.name, arguments: tc.toolArgs ?? {} }).slice(0, 16_000),
    responseHeaders: ctx.response?.headers ?? {},
    responseBody: up ? null : (ctx.response?.body ?? null),
    cost: ctx.cost,
    product: {
      productId: product.id,
      subscriptionId: ctx.subscription?.subscriptionId ?? null,
      providerId: product.providerId,
      paidByCredits: paidByCredits(ctx.spendHold),
      quantities: tc.quantities ?? null,
    },
  };
}

function recordToolCall(ctx: RequestContext): void {
  if (!ctx.auth || !ctx.response) return;
  recordRequest(toolRecord(ctx, ctx.response.status), { durable: true });
}

const TOOL_PIPELINE: Pipeline = {
  inbound: [identifyRequest, checkEntitlement, checkPlanLimits, holdCallSpend, callUpstream],
  onError: mapError,
  outbound: [releaseCallSpend, recordToolCall],
};

/**
 * A refusal of the session request says where an agent finds how to authorize (the MCP authorization spec: a 401
 * names the protected-resource metadata), with RFC 6750's `invalid_token` when a credential was sent and refused.
 */
async function withAuthChallenge(ctx: RequestContext, err: unknown): Promise<void> {
  await mapError(ctx, err);
  if (ctx.response?.status !== 401) return;
  const slug = (ctx as McpContext).mcpCall.slug;
  const sent = ctx.request.headers.get("authorization") !== null || ctx.request.headers.get("x-api-key") !== null;
  ctx.response.headers["WWW-Authenticate"] = onProductHost(ctx, slug)
    ? `Bearer resource_metadata="${ctx.request.baseUrl}/.well-known/oauth-protected-resource/mcp"${sent ? ', error="invalid_token"' : ""}`
    : bearerChallenge(ctx.request.baseUrl, slug, sent ? { error: "invalid_token" } : undefined);
}

/** Whether the request came to the product's own gateway host ({slug}.GATEWAY_HOST_SUFFIX/mcp). */
function onProductHost(ctx: RequestContext, slug: string): boolean {
  const suffix = process.env.GATEWAY_HOST_SUFFIX?.trim()
    .toLowerCase()
    .replace(/^\.+|\.+$/g, "");
  const host = ctx.request.headers.get("host")?.toLowerCase().replace(/:\d+$/, "");
  return !!suffix && host === `${slug}.${suffix}`;
}

/** An OAuth access token must have been issued for this MCP server (RFC 8707); API keys pass. */
function checkTokenAudience(ctx: RequestContext): void {
  assertTokenResource(ctx.auth!, mcpResourceUrl(ctx.request.baseUrl, ctx.gatewayProduct!.slug));
}

/** MCP off for this product (or no document to make tools from): answered as an unknown product. */
function checkMcpEnabled(ctx: RequestContext): void {
  if (!ctx.gatewayProduct!.mcpEnabled)
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      message: `The product '${ctx.gatewayProduct!.slug}' does not offer an MCP server.`,
    });
}

const SESSION_PIPELINE: Pipeline = {
  inbound: [
    identifyRequest,
    authenticateGatewayCall,
    checkRestrictions,
    resolveGatewayProduct,
    checkTokenAudience,
    checkMcpEnabled,
    serveProtocol,
  ],
  onError: withAuthChallenge,
  outbound: [],
};

export async function serveMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = req.url ?? "/";
  let slug: string;
  try {
    slug = decodeURIComponent(PARTS.exec(raw)![1]);
  } catch {
    slug = "";
  }
  const headers = new NodeHeaders(req.headers);
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https:" : "http:";
  const ctx = createRequestContext(
    {
      method: req.method ?? "POST",
      url: new URL(raw, "http://mcp.invalid"),
      headers,
      baseUrl: baseUrlFor(protocol, headers.get("host"), `${protocol}//localhost`),
      readText: () => readNodeText(req),
    },
    MCP_ROUTE,
    { slug },
    now(),
  ) as McpContext;
  ctx.mcpCall = { req, res, slug };
  const answer = await runPipeline(ctx, SESSION_PIPELINE);
  if (res.headersSent || res.writableEnded) return;
  req.resume();
  writeAnswer(res, req.method, answer);
}
