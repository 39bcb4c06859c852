import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { listProducts } from "@/lib/products/list-products";
import { PRODUCT_COLLECTION } from "@/lib/products/product-collection";
import { grants } from "@/lib/auth/scopes";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { ProductCreateForm } from "@/components/marketplace/product-create-form";
import type { serializeProduct } from "@/lib/products/serialize";

// The business's products as their provider: create one, then open it to add plans and publish it.

export const metadata = { title: "Products · Developer Portal" };

type ProductView = ReturnType<typeof serializeProduct>;

export default async function ProductsPage() {
  const ctx = await requirePortalContext();
  const page = await listProducts(
    ctx.auth,
    parseCollectionQuery(new URLSearchParams({ limit: "100", sort: "-createdAt" }), PRODUCT_COLLECTION),
  );
  const products = page.data as ProductView[];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Products</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          What your business sells. Published products are in the <Link href="/catalog">catalogue</Link> for every account.
        </p>
      </div>
      {grants(ctx.auth.scopes, "products:write") ? (
        <Card title="Create a product">
          <ProductCreateForm />
        </Card>
      ) : null}
      <Card title="Your products">
        {products.length === 0 ? (
          <EmptyState title="No products yet">Create one above, add a plan, then publish it.</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Products</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Name
                  </th>
                  <th scope="col" className="pr-3">
                    Type
                  </th>
                  <th scope="col" className="pr-3">
                    Visibility
                  </th>
                  <th scope="col" className="pr-3">
                    Catalogue
                  </th>
                </tr>
              </thead>
              <tbody>
                {products.map((p) => (
                  <tr key={p.id} className="border-t border-slate-100 dark:border-slate-800" data-testid={`product-row-${p.name}`}>
                    <td className="py-2 pr-3 font-medium">
                      <Link href={`/portal/products/${p.id}`}>{p.name}</Link>
                      {!p.isActive ? <span className="ml-2 text-xs text-slate-500">inactive</span> : null}
                    </td>
                    <td className="pr-3">{p.type}</td>
                    <td className="pr-3">
                      <Badge tone={p.visibility === "public" ? "success" : "neutral"}>
                        {p.visibility === "public" ? "Published" : "Private"}
                      </Badge>
                    </td>
                    <td className="pr-3 text-xs">
                      {p.visibility === "public" && p.slug ? <Link href={`/catalog/${p.slug}`}>/catalog/{p.slug}</Link> : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
