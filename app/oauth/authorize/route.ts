// GET /oauth/authorize: the authorization endpoint (RFC 6749 §4.1.1); POST: the consent page's decision
import { handleAuthorizeGet, handleAuthorizePost } from "@/lib/oauth/authorize-endpoint";

export const dynamic = "force-dynamic";
export const GET = handleAuthorizeGet;
export const POST = handleAuthorizePost;
