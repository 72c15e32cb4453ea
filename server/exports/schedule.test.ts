import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starterTemplate, type ExportTemplate } from '../../domain/exportTemplates';
import { clock } from '../infra/clock';
import type { Jobs } from '../infra/jobs';
import { exportRuns, exportTemplates } from '../infra/schema';
import { testApp, type TestApp } from '../testing/app';
import { SCHEDULE_ACTOR, startDueExports } from './schedule';

// The schedule's claim and due instants, on the embedded database; the queue records what it is
// given (the run itself is the export-run job, tested in exports.test.ts).
describe('templates that run by themselves (issue 32)', () => {
  let t: TestApp;
  const queued: string[] = [];
  const jobs: Jobs = { send: async (_name, data) => void queued.push(data.run!), work: async () => {}, stop: async () => {} };
  beforeAll(async () => {
    t = await testApp();
  }, 60_000);
  afterAll(async () => t?.close());

  const make = async (name: string, schedule: ExportTemplate['schedule']) =>
    (await t.database.db.insert(exportTemplates).values({ name, definition: { ...starterTemplate(name), schedule }, updatedByEmail: 'admin@example.edu', updatedAt: new Date() }).returning())[0]!.id;
  const runsOf = async (template: number) => t.database.db.select().from(exportRuns).where(eq(exportRuns.templateId, template));

  it('makes one run per due instant however many processes look, none for a template that never runs, and another at the next hour', async () => {
    const hourly = await make('Hourly', { every: 'hour', hourUtc: 0 });
    const never = await make('Never', { every: 'never', hourUtc: 0 });
    // Three processes looking at once.
    await Promise.all([startDueExports({ db: t.database.db, jobs }), startDueExports({ db: t.database.db, jobs }), startDueExports({ db: t.database.db, jobs })]);
    const first = await runsOf(hourly);
    expect(first.map((run) => [run.mode, run.startedBy])).toEqual([['changes', SCHEDULE_ACTOR]]);
    expect(queued).toContain(String(first[0]!.id));
    expect(await runsOf(never)).toEqual([]);
    await startDueExports({ db: t.database.db, jobs });
    expect(await runsOf(hourly)).toHaveLength(1);
    clock.advance(3_600_000);
    try {
      await startDueExports({ db: t.database.db, jobs });
      expect(await runsOf(hourly)).toHaveLength(2);
    } finally {
      clock.advance(-3_600_000);
    }
  });
});
