// A local SMTP server for the tests that send real mail (the stand-in for the museum's mail
// relay): it keeps every message it accepts, parsed, and can refuse recipients as a relay would.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface SmtpStandIn {
  /** For SMTP_URL. */
  url: string;
  /** Every message accepted, in order. */
  received: ParsedMail[];
  /** The messages whose first recipient is `address`. */
  mailsTo(address: string): ParsedMail[];
  close(): Promise<void>;
}

/** The first recipient's address of a message. */
const recipient = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address;

export interface SmtpStandInOptions {
  onRcptTo?: SMTPServerOptions['onRcptTo'];
  /** Runs after a message is received and before the server answers that it accepted it. */
  beforeAccept?: (m: ParsedMail) => Promise<void>;
}

export async function smtpStandIn(opts: SmtpStandInOptions = {}): Promise<SmtpStandIn> {
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    ...(opts.onRcptTo ? { onRcptTo: opts.onRcptTo } : {}),
    onData(stream, _session, cb) {
      simpleParser(stream)
        .then(async (m) => {
          received.push(m);
          await opts.beforeAccept?.(m);
        })
        .then(() => cb(), cb);
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    received,
    mailsTo: (address) => received.filter((m) => recipient(m) === address),
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  };
}
