import Link from "next/link";

const FEATURES = [
  ["Products", "Publish SaaS, API, Data and Headless products with features and usage-based prices."],
  ["API keys", "Test and live keys, scoped, expiring and rotatable; only a hash is ever stored."],
  ["Versioned REST API", "Stripe-style envelopes, cursors, filters, idempotency and deprecation notices."],
  ["OpenAPI", "Every route documented from the same schemas that validate it."],
];

export default function Landing() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600 dark:text-indigo-400">Developer Platform</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Offer your products to developers</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-300">
        A business publishes products; developers get API keys, call one REST API, and read its docs. Everything runs in one application on
        one machine, and grows onto PostgreSQL when you need it.
      </p>
      <div className="mt-8 flex flex-wrap gap-4">
        <Link href="/docs" className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white no-underline hover:bg-indigo-500">
          Read the docs
        </Link>
        <Link href="/catalog" className="rounded-md border border-slate-300 px-4 py-2 font-medium no-underline dark:border-slate-700">
          Browse the API catalogue
        </Link>
        <a href="/v1/openapi.json" className="rounded-md border border-slate-300 px-4 py-2 font-medium no-underline dark:border-slate-700">
          OpenAPI document
        </a>
      </div>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2">
        {FEATURES.map(([title, text]) => (
          <li key={title} className="rounded-lg border border-slate-200 p-5 dark:border-slate-800">
            <h2 className="font-semibold">{title}</h2>
            <p className="mt-1 text-slate-600 dark:text-slate-300">{text}</p>
          </li>
        ))}
      </ul>
      <pre className="mt-12 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">
        <code>{`curl -H "Authorization: Bearer sk_test_..." http://localhost:3000/v1/products`}</code>
      </pre>
    </main>
  );
}
