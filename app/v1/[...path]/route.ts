// Any method on a /v1 path no route serves: 404 ROUTE_NOT_FOUND in the error envelope
import { serveNotFound } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serveNotFound();
