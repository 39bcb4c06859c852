// A product's OpenAPI document as MCP tools: one tool per operation, named from its operationId, its input a JSON
// Schema object of the operation's path, query and header parameters and request body (local $refs resolved; the
// document is the stored copy, never fetched here), its output the 2xx JSON response's schema when that is an
// object, its annotations from the method. Pure: lib/gateway/gateway-product.ts builds the list once per product
// load, lib/server/mcp-front-door.ts serves it.

export type JsonSchema = Record<string, unknown>;

export type ParameterLocation = "path" | "query" | "header";

/** How a tool's arguments become the HTTP request (lib/mcp/tool-request.ts). */
export interface ToolBinding {
  method: string;
  /** The operation's path template, e.g. `/forecasts/{city}`. */
  path: string;
  /** Each parameter: where it goes, its name there, and the argument that carries it. */
  params: { in: ParameterLocation; name: string; argument: string; required: boolean }[];
  /** The argument that carries the JSON request body, when the operation takes one. */
  body: { argument: string; required: boolean; contentType: string } | null;
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

export interface McpTool {
  name: string;
  operationId: string;
  tags: string[];
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  outputSchema?: JsonSchema & { type: "object" };
  annotations: ToolAnnotations;
  binding: ToolBinding;
}

/** The provider's choices (the product's `api.mcp` block). */
export interface McpSettings {
  enabled?: boolean;
  include?: { operations?: string[]; tags?: string[] };
  exclude?: { operations?: string[]; tags?: string[] };
  tools?: Record<string, { name?: string; description?: string }>;
}

/** An operation of the document, before the provider's choices. */
export interface Operation {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  op: Record<string, unknown>;
  pathParams: unknown[];
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_REF_DEPTH = 12;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A tool name from an operationId (or a method and path): letters, digits, `_`, `-` and `.`; at most 64 characters. */
export function sanitizeToolName(raw: string): string {
  const name = raw
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  return name || "operation";
}

/** Every operation of the document, by path then method; the operationId made up from method and path where missing. */
export function documentOperations(doc: Record<string, unknown>): Operation[] {
  const out: Operation[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  // Paths in code-point order, not the document's: PostgreSQL's jsonb does not keep an object's key order, and a
  // tool's name (a second `get_item` is `get_item_2`) must not depend on the database that stored the document.
  for (const path of Object.keys(paths).sort()) {
    const rawItem = paths[path];
    const item = resolve(doc, rawItem);
    if (!isObject(item)) continue;
    const pathParams = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      // Without an operationId, one made of the method and path (`get_lists_id`): the name providers choose it by.
      const operationId = typeof op.operationId === "string" && op.operationId ? op.operationId : sanitizeToolName(`${method}${path}`);
      const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [];
      out.push({ operationId, method: method.toUpperCase(), path, tags, op, pathParams });
    }
  }
  return out;
}

/** The tools the provider exposes: its include/exclude and renames applied, names unique. */
export function toolsFromDocument(doc: Record<string, unknown>, settings: McpSettings | null | undefined): McpTool[] {
  if (settings?.enabled === false) return [];
  const chosen = documentOperations(doc).filter((o) => exposed(o, settings));
  const taken = new Set<string>();
  // Renamed tools first: a provider's chosen name is never the one that gets a suffix.
  const renamed = new Map<string, string>();
  for (const o of chosen) {
    const name = settings?.tools?.[o.operationId]?.name;
    if (name) {
      renamed.set(o.operationId, name);
      taken.add(name);
    }
  }
  return chosen.map((o) => {
    let name = renamed.get(o.operationId);
    if (!name) {
      const base = sanitizeToolName(o.operationId);
      name = base;
      for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 64 - String(n).length - 1)}_${n}`;
      taken.add(name);
    }
    return toolOf(doc, o, name, settings?.tools?.[o.operationId]?.description);
  });
}

function exposed(o: Operation, settings: McpSettings | null | undefined): boolean {
  const inc = settings?.include;
  const exc = settings?.exclude;
  if (inc && (inc.operations?.length || inc.tags?.length)) {
    const byOp = inc.operations?.includes(o.operationId) ?? false;
    const byTag = o.tags.some((t) => inc.tags?.includes(t));
    if (!byOp && !byTag) return false;
  }
  if (exc?.operations?.includes(o.operationId)) return false;
  if (o.tags.some((t) => exc?.tags?.includes(t))) return false;
  return true;
}

function toolOf(doc: Record<string, unknown>, o: Operation, name: string, description: string | undefined): McpTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const binding: ToolBinding = { method: o.method, path: o.path, params: [], body: null };
  // An operation's parameter overrides the path item's of the same name and place.
  const byKey = new Map<string, Record<string, unknown>>();
  for (const raw of [...o.pathParams, ...(Array.isArray(o.op.parameters) ? o.op.parameters : [])]) {
    const p = resolve(doc, raw);
    if (!isObject(p) || typeof p.name !== "string" || !["path", "query", "header"].includes(String(p.in))) continue;
    byKey.set(`${p.in}:${p.name}`, p);
  }
  for (const p of byKey.values()) {
    const where = p.in as ParameterLocation;
    const pname = p.name as string;
    // Names are unique per place, not across places: a second `id` (a query's beside a path's) is `query_id`.
    const argument = properties[pname] ? `${where}_${pname}` : pname;
    const schema: JsonSchema = isObject(p.schema) ? inline(doc, p.schema) : { type: "string" };
    if (typeof p.description === "string" && !schema.description) schema.description = p.description;
    properties[argument] = schema;
    const isRequired = where === "path" || p.required === true;
    if (isRequired) required.push(argument);
    binding.params.push({ in: where, name: pname, argument, required: isRequired });
  }
  const body = resolve(doc, o.op.requestBody);
  if (isObject(body) && isObject(body.content)) {
    const [contentType, media] = Object.entries(body.content).find(([type]) => /json/i.test(type)) ?? Object.entries(body.content)[0] ?? [];
    if (contentType) {
      const argument = properties.body ? "request_body" : "body";
      const schema: JsonSchema = isObject(media) && isObject(media.schema) ? inline(doc, media.schema) : {};
      if (typeof body.description === "string" && !schema.description) schema.description = body.description;
      properties[argument] = schema;
      if (body.required === true) required.push(argument);
      binding.body = { argument, required: body.required === true, contentType };
    }
  }
  const tool: McpTool = {
    name,
    operationId: o.operationId,
    tags: o.tags,
    description: description ?? describe(o),
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
    annotations: annotationsFor(o.method),
    binding,
  };
  const output = outputSchemaOf(doc, o.op);
  if (output) tool.outputSchema = output;
  return tool;
}

function describe(o: Operation): string {
  const parts = [o.op.summary, o.op.description].filter((s): s is string => typeof s === "string" && s.trim() !== "");
  return parts.length ? parts.join("\n\n") : `${o.method} ${o.path}`;
}

function annotationsFor(method: string): ToolAnnotations {
  if (method === "GET" || method === "HEAD") return { readOnlyHint: true };
  if (method === "DELETE") return { readOnlyHint: false, destructiveHint: true };
  if (method === "PUT") return { readOnlyHint: false, idempotentHint: true };
  return { readOnlyHint: false };
}

/** The first 2xx answer's JSON schema, when it describes an object (MCP's structuredContent is one). */
function outputSchemaOf(doc: Record<string, unknown>, op: Record<string, unknown>): (JsonSchema & { type: "object" }) | undefined {
  const responses = isObject(op.responses) ? op.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort()[0];
  if (!code) return undefined;
  const response = resolve(doc, responses[code]);
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const json = Object.entries(response.content).find(([type]) => /json/i.test(type))?.[1];
  if (!isObject(json) || !isObject(json.schema)) return undefined;
  const schema = inline(doc, json.schema);
  const isObjectSchema = schema.type === "object" || (schema.type === undefined && isObject(schema.properties));
  return isObjectSchema ? ({ ...schema, type: "object" } as JsonSchema & { type: "object" }) : undefined;
}

/** Follows one local `$ref` (`#/components/…`); anything else is returned as it is. */
function resolve(doc: Record<string, unknown>, value: unknown, seen = 0): unknown {
  if (!isObject(value) || typeof value.$ref !== "string") return value;
  if (seen > MAX_REF_DEPTH) return {};
  return resolve(doc, pointer(doc, value.$ref), seen + 1);
}

function pointer(doc: Record<string, unknown>, ref: string): unknown {
  // Only references inside the document: an external one would need a fetch, which the call path never makes.
  if (!ref.startsWith("#/")) return {};
  let at: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(at) && !Array.isArray(at)) return {};
    at = (at as Record<string, unknown>)[key];
  }
  return at ?? {};
}

/** A schema with its local $refs replaced by what they name; a reference met again inside itself (a recursive
 * schema) becomes `{}`, which accepts anything, so the tool stays usable. OpenAPI 3.0's `nullable` becomes a type. */
function inline(doc: Record<string, unknown>, schema: unknown, within: readonly string[] = []): JsonSchema {
  if (!isObject(schema)) return {};
  if (typeof schema.$ref === "string") {
    if (within.includes(schema.$ref) || within.length >= MAX_REF_DEPTH) return {};
    return inline(doc, pointer(doc, schema.$ref), [...within, schema.$ref]);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "nullable" || key === "example" || key === "xml" || key === "externalDocs" || key.startsWith("x-")) continue;
    if (key === "properties" && isObject(value))
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(doc, v, within)]));
    else if ((key === "items" || key === "additionalProperties" || key === "not") && isObject(value)) out[key] = inline(doc, value, within);
    else if ((key === "allOf" || key === "anyOf" || key === "oneOf") && Array.isArray(value))
      out[key] = value.map((v) => inline(doc, v, within));
    else out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}
