// GET /.well-known/oauth-protected-resource/mcp/{slug}: protected resource metadata (RFC 9728) of a product's MCP
// server. In production the data plane answers it on node:http (lib/server/node-front-door.ts); this route serves `next dev`.
import { handleProtectedResourceRequest } from "@/lib/oauth/protected-resource";
import { corsPreflight } from "@/lib/oauth/oauth-error";

export const dynamic = "force-dynamic";
export const OPTIONS = corsPreflight;
export const GET = handleProtectedResourceRequest;
