import nodemailer from 'nodemailer';
import { desc, eq } from 'drizzle-orm';
import type { Db } from './db';
import { outbox } from './schema';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A Message-ID of the mail's own (`<…@…>`), when sending it again must be recognisable as the same mail. */
  messageId?: string;
}

export interface Mailer {
  kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise the dev outbox: the mail is stored in the
 * database (readable at /dev/outbox outside production) and logged.
 */
/** Whether the mail server refused a mail for good (SMTP 5xx): sending it again would be refused again. */
export const refusedForGood = (error: unknown) => Number((error as { responseCode?: unknown }).responseCode) >= 500;

export function createMailer(options: { smtpUrl: string | null; from: string; db: Db; log: (line: string) => void }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  return {
    kind: 'outbox',
    async send(mail) {
      await options.db.insert(outbox).values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.messageId ?? null });
      options.log(`dev outbox: mail to ${mail.to}: ${mail.subject}`);
    },
  };
}

export async function readOutbox(db: Db, to?: string) {
  const query = db.select().from(outbox).orderBy(desc(outbox.id)).limit(100);
  return to ? query.where(eq(outbox.to, to.trim().toLowerCase())) : query;
}
