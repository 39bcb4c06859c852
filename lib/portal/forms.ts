import { z } from "zod";

// The portal's own forms. Resource forms reuse the API's schemas (lib/schemas); these cover what only the
// portal has: signing up and in.

export const SignUpForm = z.object({
  name: z.string().trim().min(1, "Tell us your name.").max(100),
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address.")),
  password: z.string().min(8, "Use at least 8 characters.").max(200),
  businessName: z.string().trim().min(1, "Name your business.").max(200),
});

export { zodFieldErrors as fieldErrors, type FieldErrors } from "./form-errors";
