import { db } from "@/lib/db/client";
import { minorToDecimal } from "./money";

// Billing e-mail to the consumer (issue 60): a failed payment, a payment that needs the card holder (3-D Secure),
// and a subscription made unpaid. Sent after the commit that recorded the fact, to the business's owners and admins,
// through EMAIL_SERVER (SMTP, the one the portal's sign-in links use); without it the mail is logged in one line.
// A mail that cannot be sent is logged and never fails the charge: the event (payment.*) is the record.

type MailKind = "payment_failed" | "action_required" | "unpaid";

interface InvoiceFacts {
  id: string;
  number: string;
  businessId: string;
  amountDue: number;
  currency: string;
  failureMessage: string | null;
  nextPaymentAttempt: Date | null;
  /** Where to pay, a path on this deployment (the subscription's portal page). */
  payPath: string;
}

let transport: Promise<{ sendMail(m: Record<string, unknown>): Promise<unknown> }> | null = null;
const mailer = () => (transport ??= import("nodemailer").then((m) => m.default.createTransport(process.env.EMAIL_SERVER!)));

export function billingMail(kind: MailKind, inv: InvoiceFacts, baseUrl = process.env.PUBLIC_BASE_URL ?? process.env.NEXTAUTH_URL ?? "") {
  const amount = `${minorToDecimal(BigInt(inv.amountDue), inv.currency)} ${inv.currency}`;
  const link = `${baseUrl}${inv.payPath}`;
  const why = inv.failureMessage ? ` (${inv.failureMessage})` : "";
  switch (kind) {
    case "payment_failed":
      return {
        subject: `Payment of ${amount} for invoice ${inv.number} failed`,
        text: `We could not charge your card ${amount} for invoice ${inv.number}${why}. ${
          inv.nextPaymentAttempt ? `We will try again on ${inv.nextPaymentAttempt.toISOString().slice(0, 10)}.` : ""
        } To pay it now or use another card: ${link}`,
      };
    case "action_required":
      return {
        subject: `Confirm your payment of ${amount} for invoice ${inv.number}`,
        text: `Your bank asks you to confirm the payment of ${amount} for invoice ${inv.number}. Confirm it here: ${link}`,
      };
    case "unpaid":
      return {
        subject: `Invoice ${inv.number} is unpaid: calls to the product are refused`,
        text: `Every attempt to charge ${amount} for invoice ${inv.number} failed${why}, so calls under this subscription are refused (402 SUBSCRIPTION_UNPAID) until it is paid. Pay it with another card: ${link}`,
      };
  }
}

/** Sends `kind` about the invoice to the business's owners and admins; never throws. */
export async function sendBillingMail(kind: MailKind, inv: InvoiceFacts): Promise<void> {
  try {
    const members = await db.membership.findMany({
      where: { businessId: inv.businessId, role: { in: ["owner", "admin"] } },
      include: { user: { select: { email: true } } },
    });
    const to = members.map((m) => m.user.email);
    const mail = billingMail(kind, inv);
    if (!to.length) return;
    if (!process.env.EMAIL_SERVER) {
      console.log(`[billing] mail to ${to.join(", ")}: ${mail.subject} (set EMAIL_SERVER to send it)`);
      return;
    }
    await (await mailer()).sendMail({ from: process.env.EMAIL_FROM ?? "Developer Platform <no-reply@localhost>", to, ...mail });
  } catch (e) {
    console.error(`[billing] the ${kind} mail for ${inv.id} was not sent`, e);
  }
}
