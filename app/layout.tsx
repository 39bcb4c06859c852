import { connection } from "next/server";
import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Developer Platform",
  description: "Publish products and offer them to developers: API keys, usage, docs and a REST API.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: its scripts carry the nonce of that response's CSP (proxy.ts), which a page
  // prerendered at build time could not.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
