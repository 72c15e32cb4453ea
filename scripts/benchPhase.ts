import { besideTheOfficeBench } from './benchBeside';
import { browserBench } from './benchBrowser';
import { drawnPagesBench } from './benchDrawn';
import { lookupBench } from './benchLookup';
import { pdfBench } from './benchPdf';
import { serverBench, type BenchResult } from './benchServer';
import { staffListBench } from './benchStaff';
import { deadlineNight } from './deadlineNight';

/**
 * One part of `npm run bench`, in a process of its own (bench.ts forks one for each, in turn), its
 * figures sent back to the parent. Each part starts from a fresh heap and ends with its process:
 * run in one process, the staff figures were taken in a process that earlier parts had left 1 GB
 * resident (208 MB alone), and deadline night's load generator timed its saves there too (decision
 * 0035; the release's slow runs had another cause, the notices' claim).
 */
export const benchPhases: readonly { name: string; needsPostgres: boolean; run: () => Promise<BenchResult[]> }[] = [
  { name: 'lookups pglite', needsPostgres: false, run: async () => (await lookupBench('pglite'), []) },
  { name: 'lookups postgres', needsPostgres: true, run: async () => (await lookupBench('postgres'), []) },
  { name: 'browser', needsPostgres: false, run: browserBench },
  { name: 'server pglite', needsPostgres: false, run: () => serverBench('pglite') },
  { name: 'server postgres', needsPostgres: true, run: () => serverBench('postgres') },
  { name: 'drawn pages pglite', needsPostgres: false, run: () => drawnPagesBench('pglite') },
  { name: 'drawn pages postgres', needsPostgres: true, run: () => drawnPagesBench('postgres') },
  { name: 'pdf', needsPostgres: false, run: pdfBench },
  { name: 'staff', needsPostgres: true, run: staffListBench },
  { name: 'saves beside the office', needsPostgres: true, run: besideTheOfficeBench },
  { name: 'deadline night', needsPostgres: false, run: deadlineNightResults },
];

async function deadlineNightResults(): Promise<BenchResult[]> {
  const night = await deadlineNight(30);
  const nightName = (what: string) => `deadline night: ${night.applicants} applicants at once, the whole journey to the PDF copy, one app process: ${what}`;
  return [
    { name: nightName(`journeys completed (${night.errors} errors)`), value: Math.round(night.perMinute), unit: 'a minute', floor: null, ratio: null, budget: '≥ 90, no error', holds: night.perMinute >= 90 && night.errors === 0, load: night.load },
    { name: nightName('submit → PDF copy ready, p99'), value: Math.round(night.copyP99), unit: 'ms', floor: null, ratio: null, budget: '≤ 10 s', holds: night.copyP99 <= 10_000, load: night.load },
    {
      name: nightName(`CPU per journey: app process ${night.cpuPerJourneyMs.node.toFixed(0)} ms, its Chromium ${night.cpuPerJourneyMs.browser.toFixed(0)} ms, PostgreSQL ${night.cpuPerJourneyMs.postgres.toFixed(0)} ms`),
      value: Math.round(night.cpuPerJourneyMs.node + night.cpuPerJourneyMs.browser + night.cpuPerJourneyMs.postgres),
      unit: 'ms',
      floor: null,
      ratio: null,
      budget: 'reported (docs/deploy.md sizes the fleet from it)',
      holds: true,
      load: night.load,
    },
    { name: nightName('save p99 during it'), value: Math.round(night.saveP99), unit: 'ms', floor: null, ratio: null, budget: '≤ 100 ms', holds: night.saveP99 <= 100, load: night.load },
  ];
}

// Forked by bench.ts with the part's name: its figures go back over the IPC channel, then the process ends.
if (process.send && process.argv[2]) {
  const phase = benchPhases.find((candidate) => candidate.name === process.argv[2]);
  if (!phase) throw new Error(`no bench part is named ${process.argv[2]}`);
  const results = await phase.run();
  process.send(results, () => process.exit(0));
}
