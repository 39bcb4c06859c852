// GET /.well-known/oauth-authorization-server: authorization server metadata (RFC 8414). In production the data plane
// answers it on node:http (lib/server/node-front-door.ts); this route serves `next dev`.
import { handleMetadataRequest } from "@/lib/oauth/metadata";
import { corsPreflight } from "@/lib/oauth/oauth-error";

export const dynamic = "force-dynamic";
export const OPTIONS = corsPreflight;
export const GET = handleMetadataRequest;
