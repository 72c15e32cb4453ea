import { partnerConfig } from '../../domain/config';
import type { Mail } from '../infra/mail';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const signature = `${partnerConfig.address.officeName}, ${partnerConfig.name}`;
const help = `Questions? Write to ${partnerConfig.helpEmail}.`;

/** A mail of plain paragraphs, with the office's help line and signature. */
export function mail(to: string, subject: string, paragraphs: string[]): Mail {
  const lines = [...paragraphs, help, signature];
  return {
    to,
    subject,
    text: lines.join('\n\n') + '\n',
    html: `<!doctype html><html lang="en"><body>${lines.map((p) => `<p>${escape(p)}</p>`).join('')}</body></html>`,
  };
}

