"use client";
import { useQuery } from "@tanstack/react-query";

/** A portal read with client-side refresh; starts from what the server rendered. */
export function usePortalData<T>(path: string, initialData: T, refetchMs = 10_000) {
  const q = useQuery<T>({
    queryKey: [path],
    queryFn: async () => {
      const r = await fetch(path, { headers: { accept: "application/json" } });
      const body = await r.json();
      if (!r.ok) throw new Error(body?.error?.message ?? `HTTP ${r.status}`);
      return body.data as T;
    },
    initialData,
    refetchInterval: refetchMs,
  });
  return { ...q, data: (q.data ?? initialData) as T };
}
