// Every response the API tests receive is checked against what the served OpenAPI document declares for it:
// the operation (method + path template), the status, the media type and the JSON Schema of the body (Ajv,
// draft 2020-12, as OpenAPI 3.1 uses). A generated client trusts that document, so a response it does not
// describe is a bug of the document or of the server, and the test that met it fails, naming the operation,
// the status and the first schema error.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";

// ajv-formats is CommonJS: under tsx its default export may come wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

type Json = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  regex: RegExp;
  literals: number;
  op: Json;
}

export interface Conformance {
  /** Null when the response is what the document says; otherwise why not. */
  check(method: string, url: string, status: number, headers: Headers, text: string): string | null;
}

const escapePointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

export function conformanceFor(doc: Json): Conformance {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi.json");
  const validators = new Map<string, ValidateFunction>();
  const knownHeaders = new Set(Object.keys((doc.components?.headers ?? {}) as Json).map((h) => h.toLowerCase()));
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const segments = path.split("/").filter(Boolean);
    const regex = new RegExp(
      "^/" + segments.map((s) => (/^\{\w+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/") + "/?$",
    );
    const literals = segments.filter((s) => !s.startsWith("{")).length;
    for (const [method, op] of Object.entries(item)) {
      if (["get", "post", "put", "patch", "delete"].includes(method)) ops.push({ method, path, regex, literals, op: op as Json });
    }
  }
  // A literal segment wins over a parameter, as the server's router decides (/v1/invoices/upcoming).
  ops.sort((a, b) => b.literals - a.literals);

  return {
    check(method, url, status, headers, text) {
      const contentType = headers.get("content-type");
      const { pathname } = new URL(url);
      const m = method.toLowerCase();
      const operation = ops.find((o) => o.method === m && o.regex.test(pathname));
      // A path or method the document does not have (405, 404 on unknown routes, /oauth/*): nothing declared.
      if (!operation) return null;
      const name = `${method.toUpperCase()} ${operation.path} (${operation.op.operationId})`;
      const responses = operation.op.responses as Json;
      const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => k in responses);
      const declared = key ? (responses[key] as Json) : undefined;
      if (!declared) return `${name}: status ${status} is not declared (declared: ${Object.keys(responses).join(", ")})`;
      // A header the document knows (components.headers) must be declared on the response that carries it.
      const declaredHeaders = new Set(Object.keys((declared.headers ?? {}) as Json).map((h) => h.toLowerCase()));
      for (const [header] of headers) {
        if (knownHeaders.has(header) && !declaredHeaders.has(header)) return `${name} ${status}: header '${header}' is not declared`;
      }
      const content = declared.content as Json | undefined;
      if (!content) {
        return text === "" ? null : `${name} ${status}: the document declares no body, the server sent ${text.slice(0, 200)}`;
      }
      const media = (contentType ?? "").split(";")[0].trim();
      const mediaKey = Object.keys(content).find((k) => k === media) ?? (media.endsWith("+json") ? "application/json" : undefined);
      if (!mediaKey) return `${name} ${status}: content type '${media}' is not declared (declared: ${Object.keys(content).join(", ")})`;
      if (!mediaKey.includes("json")) return null;
      const base = `openapi.json#/paths/${escapePointer(operation.path)}/${m}/responses/${key}`;
      // `fields=` answers partial objects, which the document describes beside the full schema.
      const partial = new URL(url).searchParams.has("fields") && declared["x-partial-schema"];
      const pointer = partial ? `${base}/x-partial-schema` : `${base}/content/${escapePointer(mediaKey)}/schema`;
      let validate = validators.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: pointer });
        validators.set(pointer, validate);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return `${name} ${status}: the body is not JSON: ${text.slice(0, 200)}`;
      }
      if (validate(body)) return null;
      const e = validate.errors![0];
      return `${name} ${status}: ${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)} (schema ${e.schemaPath}); body ${text.slice(0, 300)}`;
    },
  };
}

let loaded: Promise<Conformance> | undefined;

/** The checker for the server under test, built once per test process from its own /v1/openapi.json. */
export function serverConformance(baseUrl: string): Promise<Conformance> {
  loaded ??= (async () => {
    const res = await fetch(`${baseUrl}/v1/openapi.json`);
    if (!res.ok) throw new Error(`GET /v1/openapi.json: ${res.status}`);
    return conformanceFor((await res.json()) as Json);
  })();
  return loaded;
}
