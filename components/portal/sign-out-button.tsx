"use client";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/primitives";

/** `callbackUrl`: where the signed-out visitor lands (a product portal keeps them on its landing page). */
export function SignOutButton({ callbackUrl = "/signin", className }: { callbackUrl?: string; className?: string }) {
  return (
    <Button variant="ghost" className={className} onClick={() => signOut({ callbackUrl })}>
      Sign out
    </Button>
  );
}
