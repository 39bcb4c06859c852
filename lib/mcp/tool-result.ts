import type { ApiError } from "@/lib/http/errors";

// What an agent gets back from a tool call. An upstream's JSON answer is `structuredContent` (when an object) and its
// text; any other answer is text, cut at MAX_TEXT characters with a note saying so; an upstream 4xx/5xx is a tool
// error with its status and body. A platform refusal (no subscription, a limit, the quota, a failing upstream) is a
// tool error whose text says what to do next, so an agent can tell its user.

/** The most of an answer's text handed to the model. */
export const MAX_TEXT = 100_000;

/** A CallToolResult, as the MCP SDK types it (kept structural here: lib/mcp does not load the SDK). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface UpstreamAnswer {
  status: number | null;
  responseHeaders: Record<string, string>;
  body: Buffer;
  complete: boolean;
  responseBytes: number;
}

function cut(text: string, complete: boolean, total: number): string {
  if (text.length <= MAX_TEXT && complete) return text;
  return `${text.slice(0, MAX_TEXT)}\n\n[The answer was cut here: ${total} bytes in all; the first ${Math.min(text.length, MAX_TEXT)} characters are shown.]`;
}

export function toolResult(up: UpstreamAnswer, meta: Record<string, unknown>): ToolResult {
  const status = up.status ?? 502;
  const type = up.responseHeaders["content-type"] ?? "";
  const text = up.body.toString("utf8");
  const _meta = { ...meta, status };
  let json: unknown = undefined;
  if (/json/i.test(type) && up.complete) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (status >= 400) {
    const shown = json === undefined ? cut(text, up.complete, up.responseBytes) : JSON.stringify(json);
    return { isError: true, content: [{ type: "text", text: `The API answered ${status}: ${shown}` }], _meta };
  }
  if (json !== undefined) {
    const result: ToolResult = { content: [{ type: "text", text: cut(JSON.stringify(json), true, up.responseBytes) }], _meta };
    if (typeof json === "object" && json !== null && !Array.isArray(json)) result.structuredContent = json as Record<string, unknown>;
    return result;
  }
  return { content: [{ type: "text", text: text ? cut(text, up.complete, up.responseBytes) : `(${status}, no content)` }], _meta };
}

/** The platform's refusal (the error envelope's code and message) as a tool error an agent can act on. */
export function refusalResult(
  answer: { status: number; headers: Record<string, string> },
  error: ApiError | null,
  where: { baseUrl: string; slug: string },
  meta: Record<string, unknown>,
): ToolResult {
  const code = error?.code ?? "ERROR";
  const message = error?.message ?? `The call was refused (${answer.status}).`;
  const retryAfter = answer.headers["Retry-After"];
  let next = error?.suggestion ?? "";
  if (code === "PRODUCT_NOT_SUBSCRIBED" || code === "SUBSCRIPTION_INACTIVE")
    next = `Subscribe to the product at ${where.baseUrl}/p/${where.slug} (or ask the account's owner to), then call the tool again.`;
  else if (answer.status === 429 && retryAfter) next = `Retry after ${retryAfter} seconds.`;
  return {
    isError: true,
    content: [{ type: "text", text: `${code}: ${message}${next ? ` ${next}` : ""}` }],
    _meta: { ...meta, status: answer.status, code, ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}) },
  };
}
