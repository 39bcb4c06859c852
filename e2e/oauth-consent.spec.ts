import http from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect, type Page } from "@playwright/test";
import * as oauth from "oauth4webapi";
import { acceptDialogs, bearer, hydrated, newAccount, signOut, signUp, viewShot } from "./helpers";

// The OAuth flow in a real browser: a developer registers an application in the portal, a user signs in,
// sees the consent page and approves; the application (oauth4webapi) exchanges the code and calls the API;
// the user revokes it under Settings → Authorized apps.

const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The third-party application's callback: a real local server that answers and remembers what it got. */
async function callbackServer() {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url!, "http://127.0.0.1"));
    res.end("callback received");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { uri, hits, close: () => new Promise((r) => server.close(r)) };
}

/** Registers an application in the portal's OAuth apps view; returns its client_id and secret. */
async function registerInPortal(page: Page, name: string, redirectUri: string, scopes: string[]) {
  await page.goto("/portal/oauth-apps");
  await expect(page.getByRole("heading", { name: "OAuth apps", level: 1 })).toBeVisible();
  await page.getByLabel("Application name").fill(name);
  await page.getByLabel("Redirect URIs").fill(redirectUri);
  for (const s of scopes) await page.getByRole("checkbox", { name: s }).check();
  await (await hydrated(page.getByRole("button", { name: "Register application" }))).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Registered "${name}"`);
  await expect(dialog).toContainText("it will not be shown again");
  const id = (await page.getByTestId("new-client-id").textContent())!.trim();
  const secret = (await page.getByTestId("new-client-secret").textContent())!.trim();
  return { id, secret };
}

async function discover(baseURL: string) {
  const issuer = new URL(baseURL);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
}

async function authorizationUrl(as: oauth.AuthorizationServer, clientId: string, redirectUri: string, scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }))
    url.searchParams.set(k, v);
  return { url, verifier, state };
}

test("register an app, approve it on the consent page, use its token, revoke it in settings", async ({ page, request, baseURL }) => {
  await acceptDialogs(page);
  const cb = await callbackServer();
  try {
    const account = await signUp(page);
    // The form validates with the API's schema: an http redirect URI off loopback is refused next to the field.
    await page.goto("/portal/oauth-apps");
    await page.getByLabel("Application name").fill("Insecure App");
    await page.getByLabel("Redirect URIs").fill("http://app.example/callback");
    await page.getByRole("checkbox", { name: "products:read" }).check();
    await (await hydrated(page.getByRole("button", { name: "Register application" }))).click();
    await expect(page.locator("#client-redirects-error")).toContainText(/must use https/i);
    await expect(page.getByTestId("new-client-secret")).toHaveCount(0);
    const app = await registerInPortal(page, "Acme Analytics", cb.uri, ["products:read", "products:write"]);
    const row = page.getByTestId("client-row-Acme Analytics");
    await expect(row).toContainText(app.id);
    await expect(row).not.toContainText(app.secret);

    const as = await discover(baseURL!);
    const client: oauth.Client = { client_id: app.id };
    const { url, verifier, state } = await authorizationUrl(as, app.id, cb.uri, "products:read products:write");
    await page.goto(url.toString());
    await expect(page).toHaveURL(/\/oauth\/consent\?/);
    await expect(page.getByRole("heading", { name: "Authorize Acme Analytics" })).toBeVisible();
    await expect(page.getByTestId("consent-business")).toHaveText(account.businessName);
    const permissions = page.getByRole("list", { name: "Permissions requested" });
    await expect(permissions).toContainText("See your products");
    await expect(permissions).toContainText("Create and change your products");
    await expect(page.getByText("test data")).toBeVisible();
    await viewShot(page, "oauth-consent");
    await page.getByRole("button", { name: "Allow access" }).click();
    await expect(page).toHaveURL(new RegExp(`^${cb.uri}\\?`));
    await expect(page.getByText("callback received")).toBeVisible();

    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(app.secret), params, cb.uri, verifier, insecure),
    );
    expect(tokens.scope).toBe("products:read products:write");
    const made = await request.post("/v1/products", {
      headers: bearer(tokens.access_token),
      data: { name: "Made by Acme Analytics", type: "API" },
    });
    expect(made.status(), await made.text()).toBe(201);

    // The product is in the user's own (test) data: the portal's logs show the app's request.
    await page.goto("/portal/settings");
    const authorized = page.getByTestId("authorized-app-Acme Analytics");
    await expect(authorized).toContainText(account.email);
    await expect(authorized).toContainText("Create and change your products");
    await viewShot(page, "oauth-authorized-apps");
    await (await hydrated(authorized.getByRole("button", { name: "Revoke Acme Analytics" }))).click();
    await expect(page.getByTestId("authorized-app-Acme Analytics")).toHaveCount(0);
    const after = await request.get("/v1/products", { headers: bearer(tokens.access_token) });
    expect(after.status()).toBe(401);
    expect((await after.json()).error.code).toBe("ACCESS_TOKEN_REVOKED");
    const refreshed = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(app.secret),
      tokens.refresh_token!,
      insecure,
    );
    await expect(oauth.processRefreshTokenResponse(as, client, refreshed)).rejects.toMatchObject({ error: "invalid_grant" });
  } finally {
    await cb.close();
  }
});

test("a signed-out user signs in first and comes back to the consent page; denying returns access_denied", async ({ page, baseURL }) => {
  await acceptDialogs(page);
  const cb = await callbackServer();
  try {
    const account = newAccount("consent");
    await signUp(page, account);
    const app = await registerInPortal(page, "Denied App", cb.uri, ["products:read"]);
    await signOut(page);

    const as = await discover(baseURL!);
    const { url, state } = await authorizationUrl(as, app.id, cb.uri, "products:read");
    await page.goto(url.toString());
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    // Sign in on this page, so its callbackUrl brings the user back to the consent page.
    await (await hydrated(page.getByRole("button", { name: "Sign in", exact: true }))).isVisible();
    await page.locator("#email").fill(account.email);
    await page.locator("#password").fill(account.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/oauth\/consent\?/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { name: "Authorize Denied App" })).toBeVisible();
    await page.getByRole("button", { name: "Deny" }).click();
    await expect(page).toHaveURL(new RegExp(`^${cb.uri}\\?`));
    const back = new URL(page.url());
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe(state);
    expect(back.searchParams.get("code")).toBeNull();
  } finally {
    await cb.close();
  }
});

test("an unregistered redirect URI shows an error page and never leaves the site", async ({ page, baseURL }) => {
  const as = await discover(baseURL!);
  const { url } = await authorizationUrl(as, "oac_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", "https://evil.example/cb", "products:read");
  const res = await page.goto(url.toString());
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("not registered");
  expect(new URL(page.url()).host).toBe(new URL(baseURL!).host);
});
