import Link from "next/link";

const FEATURES = [
  ["Products", "Publish SaaS, API, Data and Headless products with features and usage-based prices."],
  ["API keys", "Test and live keys, scoped, expiring and rotatable; only a hash is ever stored."],
  ["Versioned REST API", "Stripe-style envelopes, cursors, filters, idempotency and deprecation notices."],
  ["OpenAPI", "Every route documented from the same schemas that validate it."],
];

export default function Landing() {
  return (
    <>
      <header className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-6 pt-6">
        <Link href="/" className="font-bold text-slate-900 no-underline dark:text-white">
          Developer Platform
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2">
          <Link
            href="/signin"
            className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 no-underline hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            Sign in
          </Link>
          <Link
            href="/signup"
            className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white no-underline hover:bg-indigo-500"
          >
            Sign up
          </Link>
        </nav>
      </header>
      <main className="mx-auto max-w-4xl px-6 py-12">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600 dark:text-indigo-400">Developer Platform</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight">Offer your products to developers</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-300">
          A business publishes products; developers get API keys, call one REST API, and read its docs. Everything runs in one application
          on one machine, and grows onto PostgreSQL when you need it.
        </p>
        <div className="mt-8 flex flex-wrap gap-4">
          <Link href="/signup" className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white no-underline hover:bg-indigo-500">
            Create an account
          </Link>
          <Link href="/docs" className="rounded-md border border-slate-300 px-4 py-2 font-medium no-underline dark:border-slate-700">
            Read the docs
          </Link>
          <Link href="/catalog" className="rounded-md border border-slate-300 px-4 py-2 font-medium no-underline dark:border-slate-700">
            Browse the API catalogue
          </Link>
          <a
            href="/v1/openapi.json"
            className="rounded-md border border-slate-300 px-4 py-2 font-medium no-underline dark:border-slate-700"
          >
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
        <pre tabIndex={0} aria-label="Example request" className="mt-12 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">
          <code>{`curl -H "Authorization: Bearer sk_test_..." http://localhost:3000/v1/products`}</code>
        </pre>
      </main>
    </>
  );
}
