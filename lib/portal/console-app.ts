import "server-only";
import { cache } from "react";
import { ensureConsoleApp, type ConsoleApp } from "@/lib/apps/console-app";
import type { PortalContext } from "./portal-context";

// The console app of the signed-in business in the chosen environment (lib/apps/console-app.ts), read once per
// request: the layout (name, theme, nav) and the page (its view's props) share one read.

const load = cache((businessId: string, environment: "test" | "production") => ensureConsoleApp({ businessId, environment }));

export function consoleApp(ctx: PortalContext): Promise<ConsoleApp> {
  return load(ctx.business.id, ctx.environment);
}
