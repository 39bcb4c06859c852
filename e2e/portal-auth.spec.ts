import { test, expect } from "@playwright/test";
import { hydrated, latestMagicLink, mailTo, newAccount, signInWithPassword, signOut, signUp, viewShot } from "./helpers";

// Signing up, out and in: password, magic link by e-mail (read from the SMTP sink), and the portal's guard.

test("the portal sends a signed-out visitor to sign-in and back after", async ({ page }) => {
  await page.goto("/portal/keys");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fportal%2Fkeys$/);
  await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  const res = await page.request.get("/api/portal/logs", { maxRedirects: 0 });
  expect(res.status()).toBe(401);
});

test("sign-up shows the schema's errors next to the fields, then lands in the portal", async ({ page }) => {
  const account = newAccount("signup");
  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await hydrated(page.getByRole("button", { name: "Create account" }));
  await page.getByLabel("Your name", { exact: true }).fill(account.name);
  await page.getByLabel("Business name", { exact: true }).fill(account.businessName);
  await page.getByLabel("E-mail", { exact: true }).fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();

  const email = page.getByLabel("E-mail", { exact: true });
  const password = page.getByLabel("Password", { exact: true });
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription("Enter a valid e-mail address.");
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveAccessibleDescription("Use at least 8 characters.");
  // The fields that were fine carry no error.
  await expect(page.getByLabel("Your name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Business name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/signup$/);

  // React resets the form after its action: fill everything again, correctly this time.
  await signUp(page, account);
  await expect(page.getByText(account.email)).toBeVisible();
  await expect(page.getByText(`${account.businessName} ·`)).toBeVisible();
  await viewShot(page, "dashboard-new");

  // The same e-mail cannot sign up twice; the message sits on the e-mail field.
  const other = await page.context().browser()!.newContext();
  const second = await other.newPage();
  await second.goto(page.url().replace(/\/portal$/, "/signup"));
  await hydrated(second.getByRole("button", { name: "Create account" }));
  await second.getByLabel("Your name", { exact: true }).fill("Someone else");
  await second.getByLabel("Business name", { exact: true }).fill("Another business");
  await second.getByLabel("E-mail", { exact: true }).fill(account.email.toUpperCase());
  await second.getByLabel("Password", { exact: true }).fill("another password");
  await second.getByRole("button", { name: "Create account" }).click();
  await expect(second.getByLabel("E-mail", { exact: true })).toHaveAccessibleDescription(/already exists/);
  await other.close();
});

test("sign out, then sign in with a password; a wrong password is refused next to the field", async ({ page }) => {
  const account = await signUp(page, newAccount("password"));
  await signOut(page);
  await page.goto("/portal");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fportal$/);
  await hydrated(page.getByRole("button", { name: "Sign in", exact: true }));

  // Client-side checks use the same messages as the server's schema.
  await page.locator("#email").fill("nope");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("#email")).toHaveAccessibleDescription("Enter a valid e-mail address.");
  await expect(page.locator("#password")).toHaveAccessibleDescription("Enter your password.");

  await signInWithPassword(page, account.email, "wrong password here");
  await expect(page.locator("#password")).toHaveAccessibleDescription("That e-mail and password do not match an account.");
  await expect(page).toHaveURL(/\/signin/);

  await signInWithPassword(page, account.email.toUpperCase(), account.password);
  await expect(page).toHaveURL(/\/portal$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByText(account.email)).toBeVisible();
});

test("a magic link from the e-mail signs in", async ({ page, browser }) => {
  const account = await signUp(page, newAccount("magic"));
  await page.goto("/portal/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Business name")).toHaveValue(account.businessName);
  await viewShot(page, "settings");

  // A second browser, never signed in, asks for a link.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto("/signin");
  await hydrated(visitor.getByRole("button", { name: "Email me a sign-in link" }));
  const before = (await mailTo(account.email)).at(-1)?.id ?? 0;
  await visitor.locator("#magicEmail").fill("not an address");
  await visitor.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(visitor.locator("#magicEmail")).toHaveAccessibleDescription("Enter a valid e-mail address.");
  await visitor.locator("#magicEmail").fill(account.email);
  await visitor.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(visitor.getByRole("status")).toContainText("Check your e-mail");

  const link = await latestMagicLink(account.email, { afterId: before });
  const base = new URL(page.url()).origin;
  expect(link.startsWith(`${base}/api/auth/callback/email?`), link).toBe(true);
  await visitor.goto(link);
  await expect(visitor).toHaveURL(/\/portal$/, { timeout: 30_000 });
  await expect(visitor.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(visitor.getByText(account.email)).toBeVisible();

  // The link works once.
  const again = await browser.newContext();
  const late = await again.newPage();
  await late.goto(link);
  await expect(late).toHaveURL(/\/signin/);
  await expect(late.getByRole("alert").filter({ hasText: /expired or was already used/ })).toBeVisible();
  await again.close();
  await context.close();
});
