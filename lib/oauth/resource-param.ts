import { GrantRefusal } from "./oauth-error";
import { canonicalResource } from "./mcp-resource";

// RFC 8707 §2.2 at the token endpoint: a `resource` sent with the authorization_code or refresh_token grant must
// name the resource the grant is bound to (the binding the user approved cannot be moved, widened or dropped);
// left out, the tokens keep the grant's binding. A resource sent for a grant that has none is invalid_target too.

export function checkResourceParam(
  param: string | undefined,
  bound: string | null,
  subject: { businessId: string; environment: string; grantId?: string | null },
): void {
  if (param === undefined) return;
  if (bound !== null && canonicalResource(param) === canonicalResource(bound)) return;
  throw new GrantRefusal(
    bound
      ? `The resource '${param.slice(0, 200)}' is not the one this authorization is bound to (${bound}).`
      : `This authorization was not given for a resource; '${param.slice(0, 200)}' cannot be added now.`,
    subject,
    "resource_mismatch",
    "invalid_target",
  );
}
