// POST /oauth/token: authorization_code and refresh_token grants (RFC 6749 §4.1.3, §6)
import { handleTokenRequest } from "@/lib/oauth/token-endpoint";

export const dynamic = "force-dynamic";
export const POST = handleTokenRequest;
