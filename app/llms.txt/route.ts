// GET /llms.txt: the platform for agents (llmstxt.org): what it is, how to authenticate, its API reference, guides
// and the catalogue of public products, each linked to its own llms.txt.
import { plainTextResponse } from "@/lib/docs/markdown-text";
import { platformLlmsTxtFor } from "@/lib/docs/platform-llms";
import { publicBaseUrl } from "@/lib/http/public-base-url";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  return plainTextResponse(await platformLlmsTxtFor(publicBaseUrl(req)));
}
