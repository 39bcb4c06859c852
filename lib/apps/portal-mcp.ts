import { now } from "@/lib/clock";
import type { AuthContext } from "@/lib/http/auth-context";
import { callScope, entitlementFor } from "@/lib/billing/entitlement";
import { gatewayProduct } from "@/lib/gateway/gateway-product";
import type { JsonSchema, ToolAnnotations } from "@/lib/mcp/openapi-tools";
import { exampleArguments } from "@/lib/mcp/client-snippets";

// A product portal's "Use with AI agents" page (/p/{slug}/mcp): the product's MCP tools as the visitor's try-it key
// would see them. The tools come from the gateway's own read of the product (lib/gateway/gateway-product.ts) and the
// answer to "may this key call it" from the same entitlement check the MCP server asks before it lists tools, for the
// key the page would use: a TEST key of the visitor's project limited to the product (call:<productId>).

export interface PortalMcpTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** A first set of arguments for the try-a-tool form. */
  example: Record<string, unknown>;
}

export type PortalMcpAccess =
  { state: "signed-out" } | { state: "not-subscribed"; message: string } | { state: "ready"; quotaUsedUp: boolean };

export interface PortalMcpView {
  /** The provider serves /mcp/{slug} (a published API product whose api.mcp.enabled is not false). */
  served: boolean;
  tools: PortalMcpTool[];
  access: PortalMcpAccess;
}

export async function portalMcpView(productSlug: string | null, visitor: Pick<AuthContext, "projectId"> | null): Promise<PortalMcpView> {
  const product = productSlug ? await gatewayProduct(productSlug) : null;
  const served = Boolean(product?.mcpEnabled);
  const tools: PortalMcpTool[] = served
    ? product!.mcpTools().map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: t.annotations,
        example: exampleArguments(t.inputSchema),
      }))
    : [];
  if (!visitor) return { served, tools, access: { state: "signed-out" } };
  if (!product) return { served, tools, access: { state: "not-subscribed", message: "The product is not published." } };
  const key = { projectId: visitor.projectId, environment: "test", scopes: [callScope(product.id)] };
  const ent = await entitlementFor(key, product.id, now().getTime());
  // As the MCP server lists tools: a used-up quota still lists them (each call then says so).
  if (ent.allowed || ent.code === "QUOTA_EXCEEDED") return { served, tools, access: { state: "ready", quotaUsedUp: !ent.allowed } };
  return { served, tools, access: { state: "not-subscribed", message: ent.message } };
}
