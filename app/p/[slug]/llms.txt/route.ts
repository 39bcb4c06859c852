// GET /p/{slug}/llms.txt: a public product portal for agents: its products, plans and limits, how to authenticate,
// the gateway and MCP addresses and its docs. Unknown, draft or not public: a plain-text 404.
import { planInWords } from "@/components/marketplace/price-text";
import { plainTextResponse } from "@/lib/docs/markdown-text";
import { productLlmsTxtFor } from "@/lib/docs/product-llms";
import { publicBaseUrl } from "@/lib/http/public-base-url";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const text = await productLlmsTxtFor((await params).slug, publicBaseUrl(req), planInWords);
  return text === null
    ? plainTextResponse("Not found: no public product has this address.\n", { status: 404, cache: "no-store" })
    : plainTextResponse(text);
}
