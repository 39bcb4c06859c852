import type { McpTool } from "./openapi-tools";

// A tool call's arguments as the HTTP request the gateway sends upstream. Each path parameter is one segment,
// percent-encoded whole: a `/`, `%2F`, `../` or `?` in an argument stays inside its segment (and an argument that is
// exactly `.` or `..` is refused), so no argument can leave the operation's path (the gateway then puts the path under the product's prefix as for /gw calls).

export interface ToolRequest {
  method: string;
  /** The path and query after the product's base, as a /gw call's path after the slug. */
  pathWithQuery: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export class ToolArgumentError extends Error {}

/** One path segment, whatever the argument holds. `.` and `..` are refused: encoded or not, a URL's path resolves them
 * (WHATWG URL reads `%2E%2E` as `..` too), so no spelling of them stays a segment of its own. */
export function pathSegment(value: string, argument = "value"): string {
  if (value === "." || value === "..")
    throw new ToolArgumentError(`The argument '${argument}' cannot be '${value}': it would name another path than the operation's.`);
  return encodeURIComponent(value);
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

// Headers an argument may never set: the gateway's own, the platform's identity headers and the hop's framing.
const RESERVED_HEADER = /^(host|content-length|transfer-encoding|connection|authorization|x-api-key|x-platform-.*|x-forwarded-.*)$/i;

export function toolRequest(tool: McpTool, args: Record<string, unknown> | undefined): ToolRequest {
  const given = args ?? {};
  const { binding } = tool;
  let path = binding.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of binding.params) {
    const value = given[p.argument];
    if (value === undefined || value === null) {
      if (p.required) throw new ToolArgumentError(`The argument '${p.argument}' is required.`);
      continue;
    }
    if (p.in === "path") path = path.split(`{${p.name}}`).join(pathSegment(text(value), p.argument));
    else if (p.in === "query") {
      if (Array.isArray(value)) for (const v of value) query.append(p.name, text(v));
      else query.append(p.name, text(value));
    } else {
      if (RESERVED_HEADER.test(p.name)) continue;
      const v = text(value);
      if (/[\r\n]/.test(v)) throw new ToolArgumentError(`The argument '${p.argument}' cannot hold a line break (it is a header).`);
      headers[p.name.toLowerCase()] = v;
    }
  }
  let body: Buffer | null = null;
  if (binding.body) {
    const value = given[binding.body.argument];
    if (value === undefined) {
      if (binding.body.required) throw new ToolArgumentError(`The argument '${binding.body.argument}' (the request body) is required.`);
    } else {
      const json = /json/i.test(binding.body.contentType);
      body = Buffer.from(json ? JSON.stringify(value) : text(value));
      headers["content-type"] = json ? "application/json" : binding.body.contentType;
    }
  }
  const qs = query.toString();
  return { method: binding.method, pathWithQuery: path + (qs ? `?${qs}` : ""), headers, body };
}
