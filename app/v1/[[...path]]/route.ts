// Every /v1 path, for `next dev`: the same dispatcher and pipeline the data plane (data-plane.mjs) runs on node:http in production.
import { serveWebRequest } from "@/lib/server/web-front-door";

export const dynamic = "force-dynamic";
export {
  serveWebRequest as GET,
  serveWebRequest as POST,
  serveWebRequest as PATCH,
  serveWebRequest as PUT,
  serveWebRequest as DELETE,
  serveWebRequest as HEAD,
  serveWebRequest as OPTIONS,
};
