// POST /oauth/revoke: token revocation (RFC 7009)
import { handleRevokeRequest } from "@/lib/oauth/token-endpoint";

export const dynamic = "force-dynamic";
export const POST = handleRevokeRequest;
