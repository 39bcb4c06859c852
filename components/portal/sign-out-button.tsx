"use client";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/primitives";

export function SignOutButton() {
  return (
    <Button variant="ghost" onClick={() => signOut({ callbackUrl: "/signin" })}>
      Sign out
    </Button>
  );
}
