// POST /oauth/revoke: token revocation (RFC 7009)
import { handleRevokeRequest } from "@/lib/oauth/token-endpoint";
import { corsPreflight } from "@/lib/oauth/oauth-error";

export const dynamic = "force-dynamic";
export const OPTIONS = corsPreflight;
export const POST = handleRevokeRequest;
