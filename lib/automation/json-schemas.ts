import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { AUTOMATION_SCHEMAS, type AutomationSchemaName } from "@/lib/schemas/automation";
import { KINDS } from "./kinds";

// The runtime-validation schemas as JSON Schema (draft 2020-12) documents: GET /v1/schemas (all of them, each in
// $defs) and GET /v1/schemas/{kind}. Generated from the same zod schemas the API validates with, in their input
// form (what a client writes: fields with defaults are optional and show the default).

type Json = Record<string, unknown>;

export const SCHEMA_NAMES = Object.keys(AUTOMATION_SCHEMAS) as AutomationSchemaName[];
const ENDPOINT = new Map<string, string>(KINDS.map((k) => [k.kind, `/v1/${k.path}`]));

/** Lenient names for {kind}: `Agent`, `agent`, `agents`, `agent-teams`, `agent_team`, `execution`, ... */
const ALIASES = new Map<string, AutomationSchemaName>();
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
for (const name of SCHEMA_NAMES) {
  ALIASES.set(squash(name), name);
  ALIASES.set(`${squash(name)}s`, name);
}
for (const k of KINDS) ALIASES.set(squash(k.path), k.kind as AutomationSchemaName);
ALIASES.set("execution", "ExecutionContext");
ALIASES.set("agentmemories", "AgentMemory");

export function resolveSchemaName(raw: string): AutomationSchemaName {
  const name = raw.length <= 100 ? ALIASES.get(squash(raw)) : undefined;
  if (!name) {
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      message: /^[A-Za-z0-9_-]{1,64}$/.test(raw) ? `No schema named '${raw}'.` : "No such schema.",
      suggestion: `Use one of: ${SCHEMA_NAMES.join(", ")}.`,
    });
  }
  return name;
}

/** One schema's root and the named schemas it refers to. */
function convert(name: AutomationSchemaName): { root: Json; defs: Record<string, Json> } {
  const out = z.toJSONSchema(AUTOMATION_SCHEMAS[name], { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as Json;
  const defs = { ...((out.$defs ?? {}) as Record<string, Json>) };
  let root: Json = out;
  if (out.$ref === `#/$defs/${name}` && defs[name]) {
    root = defs[name];
    delete defs[name];
  }
  const { $schema: _s, $defs: _d, id: _id, ...rest } = root;
  return { root: rest, defs };
}

const cache = new Map<string, Json>();

function cached(key: string, build: () => Json): Json {
  let doc = cache.get(key);
  if (!doc) {
    if (cache.size > 50) cache.clear();
    cache.set(key, (doc = build()));
  }
  return doc;
}

export function schemaDocument(name: AutomationSchemaName, baseUrl: string): Json {
  return cached(`${baseUrl}|${name}`, () => {
    const { root, defs } = convert(name);
    // A reference to the schema itself (none today; recursion would need one) points at the document root.
    const text = JSON.stringify({ ...root, ...(Object.keys(defs).length ? { $defs: defs } : {}) }).replaceAll(`"#/$defs/${name}"`, '"#"');
    return {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: `${baseUrl}/v1/schemas/${name}`,
      title: name,
      ...(JSON.parse(text) as Json),
    };
  });
}

export function schemaIndex(baseUrl: string): Json {
  return cached(`${baseUrl}|*`, () => {
    const defs: Record<string, Json> = {};
    for (const name of SCHEMA_NAMES) {
      const { root, defs: more } = convert(name);
      Object.assign(defs, more);
      defs[name] = root;
    }
    return {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: `${baseUrl}/v1/schemas`,
      title: "Automation resource schemas",
      description: "Every automation schema under $defs; GET /v1/schemas/{name} serves one as a document of its own.",
      kinds: SCHEMA_NAMES.map((name) => ({ name, schema: `${baseUrl}/v1/schemas/${name}`, endpoint: ENDPOINT.get(name) ?? null })),
      $defs: defs,
    };
  });
}
