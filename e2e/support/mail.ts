import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const mailDir = process.env.MAIL_DIR ?? '.tmp/e2e-mail';

export interface SinkMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** The mails the SMTP sink received for one address, oldest first. */
function mailsTo(address: string): SinkMail[] {
  const files = readdirSync(mailDir).filter((f) => f.endsWith('.json')).sort();
  return files
    .map((f) => JSON.parse(readFileSync(path.join(mailDir, f), 'utf8')) as SinkMail)
    .filter((m) => m.to.includes(address.toLowerCase()));
}

/** Waits until the address has received its `count`-th mail and returns it. */
export async function waitForMail(address: string, count = 1, timeoutMs = 15_000): Promise<SinkMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = mailsTo(address);
    if (mails.length >= count) return mails[count - 1]!;
    if (Date.now() > deadline) throw new Error(`mail #${count} to ${address} did not arrive (got ${mails.length})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const codeIn = (mail: SinkMail) => /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
export const resetLinkIn = (mail: SinkMail) => /https?:\/\/\S+\/reset\?\S+/.exec(mail.text)?.[0] ?? '';
