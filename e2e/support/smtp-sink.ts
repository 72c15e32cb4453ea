/**
 * A real SMTP server on 127.0.0.1 for the browser tests: the app sends its mails here over SMTP
 * (nodemailer), and each mail is written as JSON into MAIL_DIR for the tests to read.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.SMTP_SINK_PORT ?? 2525);
const dir = process.env.MAIL_DIR ?? '.tmp/e2e-mail';
mkdirSync(dir, { recursive: true });
let count = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const file = path.join(dir, `${Date.now()}-${String(++count).padStart(5, '0')}.json`);
        // Written aside, then renamed: a test reading the folder never sees half a mail.
        writeFileSync(`${file}.partial`, JSON.stringify({ to, subject: mail.subject ?? '', text: mail.text ?? '', html: mail.html || '' }));
        renameSync(`${file}.partial`, file);
        callback();
      })
      .catch(callback);
  },
});
server.listen(port, '127.0.0.1', () => console.log(`SMTP sink on 127.0.0.1:${port}, writing to ${dir}`));
