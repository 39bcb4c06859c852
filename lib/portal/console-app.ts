import "server-only";
import { cache } from "react";
import { ensureConsoleApp, readConsoleApp, type ConsoleApp } from "@/lib/apps/console-app";
import type { PortalContext } from "./portal-context";

// The console app of the signed-in business in the chosen environment (lib/apps/console-app.ts), read once per
// request: the layout (name, theme, nav) and the page (its view's props) share one read.

const read = cache((businessId: string, environment: "test" | "production") => readConsoleApp({ businessId, environment }));

export function consoleApp(ctx: PortalContext): Promise<ConsoleApp> {
  return read(ctx.business.id, ctx.environment);
}

/** For the Apps page: the console app as a record, created on this first need so it is listed and edited. */
export function ensureConsole(ctx: PortalContext): Promise<ConsoleApp> {
  return ensureConsoleApp({ businessId: ctx.business.id, environment: ctx.environment });
}
