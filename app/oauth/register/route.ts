// POST /oauth/register: dynamic client registration (RFC 7591) for MCP clients. In production the data plane answers
// it on node:http (lib/server/node-front-door.ts); this route serves `next dev`.
import { handleRegisterRequest } from "@/lib/oauth/register-client";
import { corsPreflight } from "@/lib/oauth/oauth-error";

export const dynamic = "force-dynamic";
export const OPTIONS = corsPreflight;
export const POST = handleRegisterRequest;
