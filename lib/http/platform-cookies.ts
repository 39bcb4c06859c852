// The cookies this deployment sets on its own origin: the portal's sign-in (next-auth's session, CSRF and callback
// cookies, with the __Secure-/__Host- prefixes it adds over https) and the portal's chosen business and
// environment. A browser sends them with every request to the origin, the gateway's included (the product
// portal's "try it" calls /gw/{slug}/… from the page): the gateway keeps them from the provider's upstream, and
// keeps an upstream's answer from setting them.

export const PORTAL_ENV_COOKIE = "portal_env";
export const PORTAL_BUSINESS_COOKIE = "portal_business";

const PLATFORM_COOKIE = new RegExp(`^(?:(?:__Secure-|__Host-)?next-auth\\.|${PORTAL_ENV_COOKIE}$|${PORTAL_BUSINESS_COOKIE}$)`);

/** Whether a cookie of this name is the platform's own. */
export const isPlatformCookie = (name: string): boolean => PLATFORM_COOKIE.test(name.trim());

/** The name in "name=value" (a Cookie header's pair, a Set-Cookie line): all of it when there is no "=". */
const nameOf = (pair: string) => {
  const eq = pair.indexOf("=");
  return eq === -1 ? pair : pair.slice(0, eq);
};

/** A Cookie header without the platform's cookies; null when none is left. */
export function withoutPlatformCookies(header: string): string | null {
  if (!header.includes("next-auth.") && !header.includes("portal_")) return header;
  const kept = header.split(";").filter((pair) => pair.trim() !== "" && !isPlatformCookie(nameOf(pair)));
  return kept.length ? kept.map((pair) => pair.trim()).join("; ") : null;
}

/** Whether a Set-Cookie value sets one of the platform's cookies. */
export const setsPlatformCookie = (setCookie: string): boolean => isPlatformCookie(nameOf(setCookie));
