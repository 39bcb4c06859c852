// GET /.well-known/oauth-authorization-server/{path}: the authorization server metadata again, for MCP clients that
// take an MCP server's URL for the issuer (RFC 8414 §3.1). The data plane answers it in production; this serves `next dev`.
import { handleMetadataRequest } from "@/lib/oauth/metadata";
import { corsPreflight } from "@/lib/oauth/oauth-error";

export const dynamic = "force-dynamic";
export const OPTIONS = corsPreflight;
export const GET = handleMetadataRequest;
