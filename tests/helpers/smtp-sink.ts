// A real SMTP server on loopback for the API tests (the e2e suite has its own process, e2e/smtp-sink.mjs): it takes any
// mail, parses it and keeps it, so a test can read what the platform sent through EMAIL_SERVER.
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

export interface SentMail {
  to: string[];
  subject: string;
  text: string;
}

export async function startSmtpSink(): Promise<{ url: string; messages: SentMail[]; close(): Promise<void> }> {
  const messages: SentMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream: Readable, session: { envelope: { rcptTo: { address: string }[] } }, done: (e?: Error) => void) {
      simpleParser(stream)
        .then((mail: { subject?: string; text?: string }) => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
          });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
