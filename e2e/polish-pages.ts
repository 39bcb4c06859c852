// Every page a person can reach, for the portal-wide checks (axe, 390 px): public pages and every /portal view.
export const PUBLIC_PAGES = ["/", "/signin", "/signup", "/docs", "/docs/errors", "/docs/gateway", "/apps", "/catalog"] as const;
export const PORTAL_PAGES = [
  "/portal",
  "/portal/keys",
  "/portal/webhooks",
  "/portal/usage",
  "/portal/logs",
  "/portal/docs",
  "/portal/oauth-apps",
  "/portal/settings",
  "/portal/products",
  "/portal/apps",
  "/portal/subscriptions",
  "/portal/customers",
  "/portal/revenue",
  "/portal/payouts",
] as const;

/** A file-name-safe name for a page: "/" → "home", "/portal/keys" → "portal-keys". */
export const pageSlug = (path: string) => path.replace(/^\//, "").replaceAll("/", "-") || "home";
