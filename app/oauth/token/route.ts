// POST /oauth/token: authorization_code and refresh_token grants (RFC 6749 §4.1.3, §6)
import { handleTokenRequest } from "@/lib/oauth/token-endpoint";
import { corsPreflight } from "@/lib/oauth/oauth-error";

export const dynamic = "force-dynamic";
export const OPTIONS = corsPreflight;
export const POST = handleTokenRequest;
