// GET /.well-known/oauth-authorization-server: authorization server metadata (RFC 8414)
import { publicBaseUrl } from "@/lib/server/pipeline";
import { authorizationServerMetadata } from "@/lib/oauth/metadata";
import { CORS, corsPreflight } from "@/lib/oauth/oauth-error";

export const dynamic = "force-dynamic";
export const OPTIONS = corsPreflight;

export function GET(req: Request) {
  return Response.json(authorizationServerMetadata(publicBaseUrl(req)), { headers: { "Cache-Control": "public, max-age=300", ...CORS } });
}
