// The payment settings `npm start` checks before minutes of installing and building (issue 60): PAYMENT_PROVIDER=test
// (the default: Stripe's test card numbers, offline) or stripe, whose keys must be present and well formed. A
// missing or malformed one stops the start with one line naming it. Nothing here imports a package.

const PATTERNS = {
  STRIPE_SECRET_KEY: { re: /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, what: "a secret key sk_test_… or sk_live_… (or a restricted rk_…)" },
  STRIPE_WEBHOOK_SECRET: { re: /^whsec_[A-Za-z0-9+/=]{8,}$/, what: "the webhook signing secret whsec_…" },
  STRIPE_PUBLISHABLE_KEY: { re: /^pk_(test|live)_[A-Za-z0-9]{8,}$/, what: "a publishable key pk_test_… or pk_live_…" },
};

/** One line saying what is wrong with the payment settings, or null when they can be honoured. */
export function paymentSettingsError(env = process.env) {
  const provider = env.PAYMENT_PROVIDER ?? "test";
  if (provider !== "test" && provider !== "stripe") return `PAYMENT_PROVIDER must be test or stripe, got '${provider}'`;
  const fee = env.PLATFORM_FEE_PERCENT;
  if (fee !== undefined && fee !== "" && !(/^\d{1,3}(\.\d{1,4})?$/.test(fee) && Number(fee) <= 100)) {
    return `PLATFORM_FEE_PERCENT must be a number from 0 to 100 (the platform's share of each payment), got '${fee}'`;
  }
  const retry = env.PAYMENT_RETRY_DAYS;
  const days = /^\d+(\.\d+)?( *, *\d+(\.\d+)?){0,9}$/;
  if (retry !== undefined && retry !== "" && (!days.test(retry.trim()) || retry.split(",").some((d) => !(Number(d) > 0)))) {
    return `PAYMENT_RETRY_DAYS must be 1 to 10 numbers of days above 0, comma-separated (e.g. 1,3,5), got '${retry}'`;
  }
  if (provider === "test") return null;
  for (const [name, { re, what }] of Object.entries(PATTERNS)) {
    const value = env[name];
    if (!value) return `PAYMENT_PROVIDER=stripe needs ${name}: ${what}`;
    if (!re.test(value)) return `${name} is malformed: expected ${what}`;
  }
  const secretMode = env.STRIPE_SECRET_KEY.split("_")[1];
  const publishableMode = env.STRIPE_PUBLISHABLE_KEY.split("_")[1];
  if (secretMode !== publishableMode)
    return `STRIPE_SECRET_KEY is a ${secretMode} key and STRIPE_PUBLISHABLE_KEY a ${publishableMode} one: use one mode for both`;
  if (env.STRIPE_API_BASE) {
    let url;
    try {
      url = new URL(env.STRIPE_API_BASE);
    } catch {
      return `STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, got '${env.STRIPE_API_BASE}'`;
    }
    if (!/^https?:$/.test(url.protocol) || url.pathname.replace(/\/$/, "") !== "") {
      return `STRIPE_API_BASE must be an http(s) origin without a path, such as http://127.0.0.1:12111`;
    }
  }
  return null;
}
