import { documentOperations, toolsFromDocument, type McpSettings } from "@/lib/mcp/openapi-tools";
import type { ProductUpdate } from "@/lib/schemas/product";
import { storedOpenApiDocument, type StoredApiBlock } from "./serialize";

// The provider's MCP server card (/portal/products/{id}): the document's operations with whether each is a tool
// and its rename, and the card's form back into the product's `api.mcp` settings. Saved through updateProduct with
// the whole stored api block (as PATCH /v1/products/{id} takes it), so the same checks run.

export interface McpOperationRow {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  tags: string[];
  /** Offered as a tool under the current settings. */
  tool: boolean;
  /** The tool's name: the provider's rename, else the name made from the operationId. */
  toolName: string | null;
  rename: string;
  description: string;
}

export function mcpOperationRows(api: StoredApiBlock | null | undefined): McpOperationRow[] {
  const doc = storedOpenApiDocument(api);
  if (!doc) return [];
  const settings = api?.mcp;
  const tools = new Map(toolsFromDocument(doc, { ...settings, enabled: true }).map((t) => [t.operationId, t.name]));
  return documentOperations(doc).map((o) => ({
    operationId: o.operationId,
    method: o.method,
    path: o.path,
    summary: typeof o.op.summary === "string" ? o.op.summary : "",
    tags: o.tags,
    tool: tools.has(o.operationId),
    toolName: tools.get(o.operationId) ?? null,
    rename: settings?.tools?.[o.operationId]?.name ?? "",
    description: settings?.tools?.[o.operationId]?.description ?? "",
  }));
}

export interface McpForm {
  enabled: boolean;
  operations: { operationId: string; tool: boolean; rename: string; description: string }[];
}

/**
 * The card's choices as settings: the unticked operations excluded by operationId (so an operation the document
 * gains later is a tool until the provider unticks it), renames and descriptions where typed. Tag rules set through
 * the API are replaced by the operations they chose, which the card showed ticked.
 */
export function mcpSettingsFromForm(form: McpForm): McpSettings {
  const excluded = form.operations.filter((o) => !o.tool).map((o) => o.operationId);
  const tools: NonNullable<McpSettings["tools"]> = {};
  for (const o of form.operations) {
    const name = o.rename.trim();
    const description = o.description.trim();
    if (name || description) tools[o.operationId] = { ...(name ? { name } : {}), ...(description ? { description } : {}) };
  }
  return {
    enabled: form.enabled,
    ...(excluded.length ? { exclude: { operations: excluded } } : {}),
    ...(Object.keys(tools).length ? { tools } : {}),
  };
}

/** The stored api block as a product update sends it, with new MCP settings (secret headers are kept when absent). */
export function apiUpdateWithMcp(api: StoredApiBlock, mcp: McpSettings): NonNullable<ProductUpdate["api"]> {
  return {
    upstreamUrl: api.upstreamUrl,
    sandboxUpstreamUrl: api.sandboxUpstreamUrl,
    timeoutMs: api.timeoutMs,
    openapiUrl: api.openapiUrl,
    openapiDocument: api.openapiDocument,
    mcp,
  };
}
