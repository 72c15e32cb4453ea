/**
 * The documents of a run's applications as one zip, for imaging systems (issue 32): each converted
 * PDF under `<application number>/`, and `manifest.csv` last (document id, applicant, application
 * number, form question or checklist item, file name as uploaded, path in the zip, SHA-256). Files
 * are opened one at a time as the zip is written, so memory holds none of them whole.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import type { Storage } from '../infra/storage';
import { rowsOf, type Db } from '../infra/db';
import { documents, materials } from '../infra/schema';

interface BundledFile {
  id: string;
  user_id: string;
  application_number: number;
  kind: 'form' | 'material';
  item: string;
  file_name: string;
  pdf_key: string;
}

const MANIFEST_COLUMNS = ['document_id', 'application_id', 'application_number', 'kind', 'item', 'file_name', 'path', 'sha256'];

export interface Bundle {
  /** Adds the converted documents of these applications (a batch of the run). */
  add(applications: readonly { user_id: string; application_number: number }[]): Promise<void>;
  /** Writes the manifest and closes the zip; answers how many documents it holds. */
  close(): Promise<number>;
}

export function openBundle(db: Db, storage: Storage, file: string): Bundle {
  const zip = new ZipFile();
  const out = createWriteStream(file);
  zip.outputStream.pipe(out);
  // A document that cannot be read fails the zip, and so the run: no bundle leaves with a gap.
  const failed = new Promise<never>((_resolve, reject) => zip.on('error', reject));
  failed.catch(() => {});
  const manifest: string[][] = [];
  const hashes = new Map<string, string>();

  return {
    async add(applications) {
      if (applications.length === 0) return;
      const numbers = new Map(applications.map((application) => [application.user_id, application.application_number]));
      const ids = sql.join(
        applications.map((application) => sql`${application.user_id}::uuid`),
        sql`, `,
      );
      const files = rowsOf<Omit<BundledFile, 'application_number'>>(
        await db.execute(sql`
          select id, user_id, 'form' as kind, answer_key as item, file_name, pdf_key from ${documents} where user_id in (${ids}) and status = 'completed' and pdf_key is not null
          union all
          select id, user_id, 'material' as kind, item_key as item, file_name, pdf_key from ${materials} where user_id in (${ids}) and status = 'completed' and pdf_key is not null
          order by user_id, kind, item, id`),
      );
      for (const found of files) {
        const entry: BundledFile = { ...found, application_number: numbers.get(found.user_id)! };
        const path = `${entry.application_number}/${entry.kind}-${entry.item}-${entry.id.slice(0, 8)}.pdf`;
        manifest.push([entry.id, entry.user_id, String(entry.application_number), entry.kind, entry.item, entry.file_name, path, '']);
        // Opened when the zip reaches it; hashed as it passes.
        zip.addReadStreamLazy(path, (done) => {
          storage.stream(entry.pdf_key).then(
            (source) => {
              if (!source) return done(new Error(`document ${entry.id} is missing from storage`), Readable.from([]));
              const hash = createHash('sha256');
              const through = new PassThrough();
              through.on('data', (chunk: Buffer) => hash.update(chunk));
              through.on('end', () => hashes.set(entry.id, hash.digest('hex')));
              source.pipe(through);
              done(null, through);
            },
            (error: unknown) => done(error, Readable.from([])),
          );
        });
      }
    },
    async close() {
      // Read by the zip after every document before it: their hashes are known by then.
      zip.addReadStreamLazy('manifest.csv', (done) => {
        const rows = manifest.map((row) => [...row.slice(0, 7), hashes.get(row[0]!) ?? '']);
        done(null, Readable.from([stringify([MANIFEST_COLUMNS, ...rows], { record_delimiter: 'windows', quoted_match: /[\r\n]/ })]));
      });
      zip.end();
      await Promise.race([finished(out), failed]);
      return manifest.length;
    },
  };
}
