import { mdBlocks, mdTable, oneLine } from "./markdown-text";

// An OpenAPI document (3.0 or 3.1) as Markdown, for a product's `/p/{slug}/docs.md`: one section per operation
// with its method, path, summary, parameters, request body and responses, each schema written briefly on one line
// (`{ city: string, days?: integer }`). A reader (often an agent) gets what to send and what comes back without
// parsing JSON Schema; the full document stays at openapi.json. The document is the provider's: anything may be
// missing or malformed, so every read is defensive and nothing here throws.

type Json = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** How deep a schema is spelled out before it is written `{…}`. */
const MAX_DEPTH = 3;
/** Members of an object schema shown before the rest is written `…`. */
const MAX_MEMBERS = 12;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** A local `$ref` (`#/components/schemas/City`) followed through the document, at most a few hops. */
function resolve(doc: Json, value: unknown, hops = 0): { node: Json | null; name: string | null } {
  if (!isObject(value)) return { node: null, name: null };
  const ref = str(value.$ref);
  if (!ref) return { node: value, name: null };
  if (!ref.startsWith("#/") || hops > 8) return { node: null, name: ref };
  let node: unknown = doc;
  for (const part of ref.slice(2).split("/")) node = isObject(node) ? node[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  const name = ref.split("/").pop() ?? ref;
  const next = resolve(doc, node, hops + 1);
  return { node: next.node, name: next.name ?? name };
}

/** A schema on one line: `string`, `integer[]`, `"a" | "b"`, `{ id: string, tags?: string[] }`, `City` at depth. */
export function schemaBrief(doc: Json, schema: unknown, depth = 0): string {
  const { node, name } = resolve(doc, schema);
  if (!node) return name ?? "any";
  if (name && depth >= MAX_DEPTH) return name;
  const union = (node.oneOf ?? node.anyOf) as unknown;
  if (Array.isArray(union) && union.length) return union.map((s) => schemaBrief(doc, s, depth + 1)).join(" | ");
  if (Array.isArray(node.allOf) && node.allOf.length) return node.allOf.map((s) => schemaBrief(doc, s, depth + 1)).join(" & ");
  if (Array.isArray(node.enum) && node.enum.length) return node.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (node.const !== undefined) return JSON.stringify(node.const);
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((t): t is string => typeof t === "string");
  const nullable = node.nullable === true || types.includes("null");
  const type = types.find((t) => t !== "null") ?? (isObject(node.properties) ? "object" : node.items ? "array" : "");
  let text: string;
  if (type === "array") text = `${wrap(schemaBrief(doc, node.items, depth + 1))}[]`;
  else if (type === "object") text = objectBrief(doc, node, depth);
  else text = type ? type + (typeof node.format === "string" ? ` (${node.format})` : "") : "any";
  return nullable ? `${text} | null` : text;
}

const wrap = (s: string) => (/[|&]/.test(s) && !s.startsWith("{") ? `(${s})` : s);

function objectBrief(doc: Json, node: Json, depth: number): string {
  const props = isObject(node.properties) ? Object.entries(node.properties) : [];
  if (props.length === 0)
    return isObject(node.additionalProperties) ? `{ [key]: ${schemaBrief(doc, node.additionalProperties, depth + 1)} }` : "object";
  if (depth >= MAX_DEPTH) return "{…}";
  const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
  const members = props.slice(0, MAX_MEMBERS).map(([key, s]) => `${key}${required.has(key) ? "" : "?"}: ${schemaBrief(doc, s, depth + 1)}`);
  if (props.length > MAX_MEMBERS) members.push("…");
  return `{ ${members.join(", ")} }`;
}

interface Operation {
  method: string;
  path: string;
  op: Json;
  shared: unknown[];
}

function operationsOf(doc: Json): Operation[] {
  const paths = isObject(doc.paths) ? doc.paths : {};
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) if (isObject(item[method])) out.push({ method, path, op: item[method] as Json, shared });
  }
  return out;
}

function parametersTable(doc: Json, o: Operation): string {
  // An operation's own parameter replaces a path-level one of the same name and place.
  const byKey = new Map<string, Json>();
  for (const p of [...o.shared, ...(Array.isArray(o.op.parameters) ? o.op.parameters : [])]) {
    const { node } = resolve(doc, p);
    if (node && str(node.name)) byKey.set(`${str(node.in)}:${str(node.name)}`, node);
  }
  const rows = [...byKey.values()].map((p) => [
    `\`${str(p.name)}\``,
    str(p.in),
    p.required === true || p.in === "path" ? "yes" : "no",
    `\`${schemaBrief(doc, p.schema)}\``,
    oneLine(str(p.description)),
  ]);
  return rows.length ? `**Parameters**\n\n${mdTable(["Name", "In", "Required", "Type", "Description"], rows)}` : "";
}

/** `application/json: { … }` for each media type of a request body or response. */
function contentLines(doc: Json, content: unknown): string[] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([type, media]) =>
    isObject(media) && media.schema !== undefined ? `${type}: \`${schemaBrief(doc, media.schema)}\`` : type,
  );
}

function requestBody(doc: Json, op: Json): string {
  const { node } = resolve(doc, op.requestBody);
  if (!node) return "";
  const lines = contentLines(doc, node.content);
  const head = `**Request body**${node.required === true ? " (required)" : ""}${node.description ? `: ${oneLine(str(node.description))}` : ""}`;
  return lines.length ? `${head}\n\n${lines.map((l) => `- ${l}`).join("\n")}` : head;
}

function responses(doc: Json, op: Json): string {
  if (!isObject(op.responses)) return "";
  const lines = Object.entries(op.responses).map(([status, r]) => {
    const { node } = resolve(doc, r);
    const description = oneLine(str(node?.description));
    const bodies = contentLines(doc, node?.content);
    return `- \`${status}\`${description ? ` ${description}` : ""}${bodies.length ? `: ${bodies.join("; ")}` : ""}`;
  });
  return lines.length ? `**Responses**\n\n${lines.join("\n")}` : "";
}

/** One operation: `### GET /forecast`, its summary and description, parameters, body and responses. */
export function operationMarkdown(doc: Json, o: Operation, level = 3): string {
  const summary = oneLine(str(o.op.summary));
  const description = str(o.op.description).trim();
  return mdBlocks([
    `${"#".repeat(level)} ${o.method.toUpperCase()} ${o.path}`,
    summary,
    description && description !== summary ? description : null,
    o.op.deprecated === true ? "Deprecated." : null,
    parametersTable(doc, o),
    requestBody(doc, o.op),
    responses(doc, o.op),
  ]).trimEnd();
}

/**
 * The whole document's operations under a heading of `level` (the title) and `level + 1` (each operation), after the
 * document's own description, its server address and the caller's `intro`.
 */
export function openApiToMarkdown(doc: Json, o: { title?: string; level?: number; serverUrl?: string; intro?: string } = {}): string {
  const level = o.level ?? 1;
  const info = isObject(doc.info) ? doc.info : {};
  const title = o.title ?? (str(info.title) || "API reference");
  const servers = Array.isArray(doc.servers) ? doc.servers.filter(isObject).map((s) => str(s.url)) : [];
  const base = o.serverUrl ?? servers[0];
  const ops = operationsOf(doc);
  return mdBlocks([
    `${"#".repeat(level)} ${title}`,
    str(info.description).trim(),
    [str(info.version) ? `Version: ${str(info.version)}` : "", base ? `Base URL: \`${base}\`` : ""].filter(Boolean).join(" · "),
    o.intro,
    ops.length ? null : "The document describes no operation.",
    ...ops.map((op) => operationMarkdown(doc, op, level + 1)),
  ]);
}
