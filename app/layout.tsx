import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Developer Platform",
  description: "Publish products and offer them to developers: API keys, usage, docs and a REST API.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
