import Link from "next/link";
import { Badge } from "@/components/ui/primitives";
import { describeLimits, describePrice, isPrepaid, type PriceView } from "./price-text";

// A product's active plans side by side: what each costs (a prepaid plan badged as such, paid from credits), the
// rate limit and monthly quota it buys, and (on the product page) a Subscribe link per plan, which leads to the
// portal's subscribe form (sign-in first).

export function PricingTable({
  prices,
  subscribeHref,
  caption,
}: {
  prices: PriceView[];
  subscribeHref?: (priceId: string) => string;
  caption: string;
}) {
  if (!prices.length) return <p className="text-sm text-slate-500">No plans yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Plan
            </th>
            <th scope="col" className="pr-3">
              Price
            </th>
            <th scope="col" className="pr-3">
              Rate limit
            </th>
            <th scope="col" className="pr-3">
              Monthly quota
            </th>
            {subscribeHref ? (
              <th scope="col">
                <span className="sr-only">Subscribe</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {prices.map((p) => {
            const d = describePrice(p);
            const l = describeLimits(p);
            return (
              <tr key={p.id} className="border-t border-slate-100 align-top dark:border-slate-800" data-testid={`plan-${p.name}`}>
                <th scope="row" className="py-2 pr-3 font-medium">
                  {p.name}
                  {isPrepaid(p) ? (
                    <>
                      {" "}
                      <Badge tone="info">Prepaid</Badge>
                    </>
                  ) : null}
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">{d.shape}</span>
                </th>
                <td className="py-2 pr-3">
                  <span className="font-semibold tabular-nums">{d.headline}</span>
                  {d.details.length ? (
                    <ul className="text-xs text-slate-600 dark:text-slate-400">
                      {d.details.map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  ) : null}
                </td>
                <td className="py-2 pr-3 tabular-nums">{l.rate}</td>
                <td className="py-2 pr-3 tabular-nums">{l.quota}</td>
                {subscribeHref ? (
                  <td className="py-2 text-right">
                    <Link
                      href={subscribeHref(p.id)}
                      aria-label={`Subscribe to ${p.name}`}
                      className="inline-block rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white no-underline hover:bg-indigo-500"
                    >
                      Subscribe
                    </Link>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
