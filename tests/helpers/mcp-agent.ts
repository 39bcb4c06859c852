// An AI agent's side of the MCP authorization flow, for the MCP SDK's client (its OAuthClientProvider): what it keeps
// between runs (its registration, tokens and PKCE verifier) and where it sent its user to authorize.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

export class AgentAuth implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  sentUserTo: URL | null = null;
  constructor(
    private readonly redirect: string,
    private readonly name = "Forecast agent",
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.sentUserTo = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A product's OpenAPI document with one operation, GET /forecast/{city} (getForecast), answering a JSON object. */
export const FORECAST_DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Forecasts", version: "1" },
  paths: {
    "/forecast/{city}": {
      get: {
        operationId: "getForecast",
        summary: "Tomorrow's forecast",
        parameters: [{ name: "city", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
};
