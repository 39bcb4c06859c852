import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { consoleApp } from "@/lib/portal/console-app";
import { Card } from "@/components/ui/primitives";
import { ApiReference } from "@/components/portal/api-reference";

export const metadata = { title: "Documentation · Developer Portal" };

const EXAMPLES: Record<string, { label: string; code: string }> = {
  shell: { label: "curl", code: `curl https://YOUR_HOST/v1/products?limit=5 \\\n  -H "Authorization: Bearer $API_KEY"` },
  node: {
    label: "Node.js",
    code: `const res = await fetch("https://YOUR_HOST/v1/products?limit=5", {\n  headers: { Authorization: \`Bearer \${process.env.API_KEY}\` },\n});\nconst { data, pagination } = await res.json();`,
  },
  python: {
    label: "Python",
    code: `import os, requests\nr = requests.get("https://YOUR_HOST/v1/products", params={"limit": 5},\n                 headers={"Authorization": f"Bearer {os.environ['API_KEY']}"})\nprint(r.json()["data"])`,
  },
  go: {
    label: "Go",
    code: `req, _ := http.NewRequest("GET", "https://YOUR_HOST/v1/products?limit=5", nil)\nreq.Header.Set("Authorization", "Bearer "+os.Getenv("API_KEY"))\nres, err := http.DefaultClient.Do(req)`,
  },
  ruby: {
    label: "Ruby",
    code: `uri = URI("https://YOUR_HOST/v1/products?limit=5")\nreq = Net::HTTP::Get.new(uri, "Authorization" => "Bearer #{ENV['API_KEY']}")\nres = Net::HTTP.start(uri.host, uri.port, use_ssl: true) { |h| h.request(req) }`,
  },
};

export default async function DeveloperDocs() {
  const ctx = await requirePortalContext();
  const props = (await consoleApp(ctx)).app.views.docs;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Documentation</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          The reference below is generated from the same schemas that validate requests. Errors are explained one by one under{" "}
          <Link href="/docs/errors">Errors</Link>; webhook receivers, under <Link href="/docs/webhooks">Webhooks</Link>; third-party apps,
          under <Link href="/docs/oauth">OAuth</Link>.
        </p>
      </div>
      {props.showCodeExamples ? (
        <Card title="Quick start">
          <div className="grid gap-4 lg:grid-cols-2">
            {props.languages
              .filter((l) => EXAMPLES[l])
              .map((l) => (
                <figure key={l} className="min-w-0">
                  <figcaption id={`example-${l}`} className="text-xs font-semibold uppercase text-slate-600 dark:text-slate-400">
                    {EXAMPLES[l].label}
                  </figcaption>
                  <pre
                    tabIndex={0}
                    aria-labelledby={`example-${l}`}
                    className="mt-1 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
                  >
                    <code>{EXAMPLES[l].code}</code>
                  </pre>
                </figure>
              ))}
          </div>
        </Card>
      ) : null}
      {props.format === "openapi" ? (
        <ApiReference specUrl={props.specUrl} enableTryIt={props.enableTryIt} environment={ctx.environment} />
      ) : null}
    </div>
  );
}
