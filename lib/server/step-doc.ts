import type { AnyRoute } from "@/lib/http/route";

// What a pipeline step adds to the answers of the routes it runs for: statuses it can answer with and headers it
// sets. lib/server/openapi.ts documents every operation from these, next to the steps themselves, so a new step
// (or a new header of an old one) cannot be left out of the OpenAPI document.

export interface HeaderDoc {
  description: string;
  schema: Record<string, unknown>;
  /** "all": every answer; "success": 2xx answers only; "error": error answers; numbers: those statuses. */
  on: "all" | "success" | "error" | number[];
}

export interface StepDoc {
  step: string;
  /** The routes the step runs for (public routes skip authentication, rate limits and scopes). */
  appliesTo: (route: AnyRoute) => boolean;
  /** Statuses (with a sentence each) the step can answer with. */
  statuses?: Record<number, string>;
  headers?: Record<string, HeaderDoc>;
}

export const authenticated = (route: AnyRoute) => route.auth !== "none";
export const always = () => true;
