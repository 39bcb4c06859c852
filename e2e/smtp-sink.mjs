// A local SMTP sink for the browser tests: accepts any mail on 127.0.0.1:E2E_SMTP_PORT (2525 by default; no
// TLS, no auth), parses it with mailparser and keeps it in memory. A small HTTP server on the next port up
// (2526 by default) serves what arrived:
//   GET    /health               200 "ok" (Playwright's readiness check)
//   GET    /messages[?to=<addr>] [{ id, to[], from, subject, text, html, date }], oldest first
//   DELETE /messages             forgets everything
// next-auth's EmailProvider sends its magic links here when the app runs with EMAIL_SERVER=smtp://127.0.0.1:2525.
import http from "node:http";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2525);
const httpPort = Number(process.env.E2E_SMTP_HTTP_PORT ?? smtpPort + 1);
const host = "127.0.0.1";
const MAX_MESSAGES = 1000;

/** @type {{ id: number; to: string[]; from: string; subject: string; text: string; html: string; date: string }[]} */
let messages = [];
let nextId = 1;

const addresses = (field) =>
  field
    ? (Array.isArray(field) ? field : [field])
        .flatMap((a) => a.value ?? [])
        .map((v) => String(v.address ?? "").toLowerCase())
        .filter(Boolean)
    : [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  size: 5 * 1024 * 1024,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        // The envelope's recipients are the truth (Bcc included); the To header is a fallback.
        const envelope = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push({
          id: nextId++,
          to: envelope.length ? envelope : addresses(mail.to),
          from: mail.from?.text ?? session.envelope.mailFrom?.address ?? "",
          subject: mail.subject ?? "",
          text: mail.text ?? "",
          html: typeof mail.html === "string" ? mail.html : "",
          date: new Date().toISOString(),
        });
        if (messages.length > MAX_MESSAGES) messages = messages.slice(-MAX_MESSAGES);
        callback();
      })
      .catch((e) => callback(e));
  },
});
smtp.on("error", (e) => console.error("[smtp-sink]", e.message));

const api = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", `http://${host}`);
  const send = (status, body) => {
    res.writeHead(status, { "Content-Type": typeof body === "string" ? "text/plain" : "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  if (url.pathname === "/health") return send(200, "ok");
  if (url.pathname === "/messages" && req.method === "GET") {
    const to = url.searchParams.get("to")?.toLowerCase();
    return send(200, to ? messages.filter((m) => m.to.includes(to)) : messages);
  }
  if (url.pathname === "/messages" && req.method === "DELETE") {
    messages = [];
    return send(200, { deleted: true });
  }
  send(404, { error: "not found" });
});

smtp.listen(smtpPort, host, () => {
  api.listen(httpPort, host, () => console.log(`[smtp-sink] SMTP on ${host}:${smtpPort}, messages on http://${host}:${httpPort}/messages`));
});

const stop = () => {
  api.close();
  smtp.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
