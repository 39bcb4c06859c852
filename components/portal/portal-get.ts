// A GET of one of the portal's JSON routes (/api/portal/…): the data, or an Error with the route's own message.
export async function portalGet<T>(url: string): Promise<T> {
  const r = await fetch(url, { headers: { accept: "application/json" } });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw new Error(body?.error?.message ?? `The portal answered ${r.status}.`);
  return body.data as T;
}
