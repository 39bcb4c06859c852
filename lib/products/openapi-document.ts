import http from "node:http";
import https from "node:https";
import { now } from "@/lib/clock";
import { invalidField } from "@/lib/http/errors";
import { guardedLookup } from "@/lib/webhooks/send";
import { checkUrlTarget } from "@/lib/webhooks/url-safety";
import { documentOperations, toolsFromDocument, type McpSettings } from "@/lib/mcp/openapi-tools";

// A product's OpenAPI document: checked when it is set (uploaded, or fetched from openapiUrl then), stored with the
// product, and fetched again only when the provider asks (POST /v1/products/{id}/openapi/refresh). The gateway's
// MCP tools and the developer portal's reference read the stored copy: a call never waits for the provider's host.

export const MAX_DOCUMENT_BYTES = 1_000_000;
const FETCH_TIMEOUT_MS = 5_000;

/** Why the value is not an OpenAPI 3 document, or null when it is one the tools can be made from. */
export function openApiProblem(doc: unknown): string | null {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return "The document is not a JSON object.";
  const d = doc as Record<string, unknown>;
  if (typeof d.openapi !== "string" || !/^3\.\d+/.test(d.openapi))
    return typeof d.swagger === "string"
      ? "Swagger 2.0 documents are not supported: convert it to OpenAPI 3 (e.g. with swagger2openapi)."
      : "The document has no 'openapi' field naming version 3.x.";
  if (d.paths !== undefined && (typeof d.paths !== "object" || d.paths === null || Array.isArray(d.paths)))
    return "'paths' must be an object of path items.";
  for (const [path, item] of Object.entries((d.paths ?? {}) as Record<string, unknown>)) {
    if (!path.startsWith("/")) return `The path '${path.slice(0, 100)}' does not start with '/'.`;
    if (typeof item !== "object" || item === null) return `The path item '${path.slice(0, 100)}' is not an object.`;
  }
  return null;
}

/** The document at `url`, fetched now (≤ 5 s, ≤ 1 MB, no redirects, the SSRF rules of webhooks); a 400 naming
 * `field` with the reason when it cannot be had or is not an OpenAPI 3 document. */
export async function fetchOpenApiDocument(url: string, field = "api.openapiUrl"): Promise<Record<string, unknown>> {
  const problem = await checkUrlTarget(url, "OpenAPI URLs");
  if (problem) throw invalidField(field, problem.message);
  let text: string;
  try {
    text = await getText(url);
  } catch (e) {
    throw invalidField(field, `The OpenAPI document could not be fetched: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw invalidField(field, `The OpenAPI document is not valid JSON: ${(e as Error).message}`, "Serve the document as JSON.");
  }
  const reason = openApiProblem(parsed);
  if (reason) throw invalidField(field, reason);
  return parsed as Record<string, unknown>;
}

function getText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = (u.protocol === "https:" ? https : http).get(
      u,
      { headers: { accept: "application/json" }, lookup: guardedLookup as never, timeout: FETCH_TIMEOUT_MS },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return reject(new Error(`it answered ${status} (redirects are not followed; give the final URL)`));
        }
        if (status !== 200) {
          res.resume();
          return reject(new Error(`it answered ${status}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_DOCUMENT_BYTES) {
            req.destroy(new Error("it is larger than 1 MB"));
            return;
          }
          chunks.push(c);
        });
        res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`)));
    req.on("error", (e: NodeJS.ErrnoException) =>
      reject(e.code === "EPRIVATE" ? new Error("its address is not allowed on this deployment") : e),
    );
  });
}

/** The stored copy's fields for the api block. */
export const fetchedCopy = (document: Record<string, unknown>) => ({ openapiFetched: document, openapiFetchedAt: now().toISOString() });

/**
 * The provider's MCP choices checked against the document: every operationId and tag they name exists, and the tool
 * names they give are unique. A 400 names the first field that is wrong.
 */
export function checkMcpSettings(settings: McpSettings, doc: Record<string, unknown> | null): void {
  const operations = doc ? documentOperations(doc) : [];
  const ids = new Set(operations.map((o) => o.operationId));
  const tags = new Set(operations.flatMap((o) => o.tags));
  const noDocument = "The product has no OpenAPI document (api.openapiUrl or api.openapiDocument) to choose operations from.";
  for (const part of ["include", "exclude"] as const) {
    settings[part]?.operations?.forEach((id, i) => {
      if (!ids.has(id))
        throw invalidField(`api.mcp.${part}.operations[${i}]`, doc ? `The OpenAPI document has no operation '${id}'.` : noDocument);
    });
    settings[part]?.tags?.forEach((tag, i) => {
      if (!tags.has(tag))
        throw invalidField(`api.mcp.${part}.tags[${i}]`, doc ? `No operation of the OpenAPI document has the tag '${tag}'.` : noDocument);
    });
  }
  for (const id of Object.keys(settings.tools ?? {}))
    if (!ids.has(id)) throw invalidField(`api.mcp.tools.${id}`, doc ? `The OpenAPI document has no operation '${id}'.` : noDocument);
  if (!doc) return;
  const seen = new Map<string, string>();
  for (const tool of toolsFromDocument(doc, { ...settings, enabled: true })) {
    const other = seen.get(tool.name);
    if (other !== undefined) {
      const renamed = settings.tools?.[tool.operationId]?.name ? tool.operationId : other;
      throw invalidField(`api.mcp.tools.${renamed}.name`, `Two tools would be called '${tool.name}'.`, "Give each tool its own name.");
    }
    seen.set(tool.name, tool.operationId);
  }
}
