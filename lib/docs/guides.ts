// The guides the portal serves at /docs/guides/{slug}, each from docs/{slug}.md. The route reads only files named
// here, so a slug from the URL never becomes a path on its own. Order is the order /docs lists them in.

export interface Guide {
  slug: string;
  title: string;
  summary: string;
}

export const GUIDES: readonly Guide[] = [
  { slug: "marketplace", title: "Marketplace", summary: "Publish an API product, find it, subscribe, verify and meter calls, get paid." },
  { slug: "gateway", title: "Gateway", summary: "Call a provider's API through /gw/{slug}: checks, signed headers, metering." },
  {
    slug: "mcp",
    title: "MCP for AI agents",
    summary: "Every API product as an MCP server: tools from its OpenAPI document, calls billed.",
  },
  { slug: "billing", title: "Billing", summary: "Pricing shapes, cost on every call, invoices, payments and test mode." },
  { slug: "payments", title: "Payments through Stripe", summary: "Stripe charges the consumers, Stripe Connect pays the providers." },
  { slug: "keys-and-limits", title: "API keys and limits", summary: "Keys and rotation, rate limits, quotas, usage and request logs." },
  { slug: "oauth", title: "OAuth 2.0", summary: "Let a third-party application act for a user's business." },
  { slug: "webhooks", title: "Webhooks", summary: "Receive signed events: the request, signatures, retries, the worker." },
  { slug: "apps", title: "Apps and product portals", summary: "Stored apps, each product's developer portal, the console as an app." },
  { slug: "automation", title: "Automation resources", summary: "Agents, workflows, functions, triggers, tools, tasks and executions." },
  { slug: "api-conventions", title: "API conventions", summary: "Envelopes, pagination, errors, test and live data." },
  { slug: "typed-clients", title: "Typed clients", summary: "Generate a typed client from the OpenAPI document." },
  {
    slug: "security",
    title: "Security and reliability",
    summary: "Secrets at rest, redaction, idempotency, hostile input, outbound URLs.",
  },
  { slug: "architecture", title: "Architecture", summary: "How a request flows and what is where in the code." },
  { slug: "operations", title: "Operations", summary: "The data plane and Next processes, the bus, health checks and settings." },
  { slug: "configuration", title: "Configuration", summary: "Every setting, the database and its migrations." },
  { slug: "deploy", title: "Running several nodes", summary: "Nodes behind haproxy or nginx on shared PostgreSQL and Redis." },
  { slug: "scaling", title: "Scaling", summary: "The capacity model, where the first limit is, and what comes next." },
  { slug: "benchmarks", title: "Benchmarks", summary: "Each benchmark's command, machine and latest figures." },
];

export function guideBySlug(slug: string): Guide | undefined {
  return GUIDES.find((g) => g.slug === slug);
}

export const guideHref = (slug: string) => `/docs/guides/${slug}`;

/**
 * Where a link written in a guide or the README should point when the page is served: `billing.md`,
 * `docs/billing.md`, `./billing.md#anchor` become `/docs/guides/billing#anchor` for a listed guide; anything else
 * (external URLs, anchors, files that are not guides) is left as written.
 */
export function guideLinkTarget(href: string): string {
  const m = /^(?:\.\/)?(?:(?:\.\.\/)?docs\/)?([a-z0-9-]+)\.md(#[\w-]*)?$/.exec(href);
  if (!m || !guideBySlug(m[1])) return href;
  return guideHref(m[1]) + (m[2] ?? "");
}
