import type { Environment } from "@/lib/keys/key-format";

/** Who is calling: resolved once per request by the authentication step. */
export interface AuthContext {
  keyId: string;
  businessId: string;
  projectId: string;
  environment: Environment;
  scopes: string[];
  plan: string;
  rateLimit: number | null;
  restrictions: KeyRestrictions | null;
}

export interface KeyRestrictions {
  ipWhitelist?: string[];
  referrerWhitelist?: string[];
  rateLimit?: number;
}
