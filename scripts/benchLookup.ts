import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { testApp } from '../server/testing/app';
import { parseLookupFile } from '../server/lookup/sources';
import { seedLookups, shippedFiles } from '../server/lookup/store';

/**
 * `npm run bench`'s first part: lookup latency over the shipped lists, through the whole server (routing,
 * validation, rate limit, query, serialisation) with Fastify's inject, on PGlite and, when it
 * answers, PostgreSQL. The queries are what an applicant types: for a sample of real names, the
 * first three letters, the first word, the first word and two letters of the next, the whole name.
 * Every loop is bounded; the figures are printed, not asserted.
 */
const SAMPLE_EVERY = 100; // ~215 schools, ~63 colleges
const WARM_UP = 50;

const recordsOf = (file: string) => parseLookupFile(readFileSync(file, 'utf8')).records;
const sample = <T>(list: T[]) => list.filter((_, index) => index % SAMPLE_EVERY === 0);

function typedForms(name: string): string[] {
  const words = name.split(/\s+/).filter(Boolean);
  const forms = [name.slice(0, 3), words[0] ?? name, words.length > 1 ? `${words[0]} ${words[1]!.slice(0, 2)}` : name, name.slice(0, 100)];
  return [...new Set(forms.filter((form) => form.trim().length > 0))];
}

// The same records the server loads, read by the same reader.
const schools = sample(recordsOf(shippedFiles.hs_ceeb));
const schoolNames = schools.map((school) => school.name);
const collegeNames = sample(recordsOf(shippedFiles.college_ceeb)).map((college) => college.name);
const schoolCodes = schools.map((school) => school.id);
const zipPrefixes = schools.flatMap((school) => (school.zip && /^\d{5}/.test(school.zip) ? [school.zip.slice(0, 3 + (school.name.length % 3))] : []));
const workloads: { label: string; urls: string[] }[] = [
  { label: 'hs_ceeb text', urls: schoolNames.flatMap(typedForms).map((text) => `/lookup/find?category=hs_ceeb&max_results=5&text=${encodeURIComponent(text)}`) },
  { label: 'college_ceeb text', urls: collegeNames.flatMap(typedForms).map((text) => `/lookup/find?category=college_ceeb&max_results=5&text=${encodeURIComponent(text)}`) },
  { label: 'name text', urls: schoolNames.map((text) => `/lookup/find?category=name&max_results=5&text=${encodeURIComponent(text.slice(0, 6))}`) },
  { label: 'address text', urls: zipPrefixes.map((text) => `/lookup/find?category=address&max_results=5&text=${text}`) },
  { label: 'hs_ceeb id', urls: schoolCodes.map((id) => `/lookup/find?category=hs_ceeb&id=${id}`) },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function lookupBench(kind: 'pglite' | 'postgres') {
  const t = await testApp({ kind, env: { RATE_LIMIT_SCALE: '100' } });
  try {
    const seedStart = performance.now();
    await seedLookups(t.database.db);
    console.log(`${kind}: first-start load of the shipped lists ${(performance.now() - seedStart).toFixed(0)} ms`);
    for (const url of workloads[0]!.urls.slice(0, WARM_UP)) await t.app.inject({ method: 'GET', url });
    for (const { label, urls } of workloads) {
      const times: number[] = [];
      let results = 0;
      for (const url of urls) {
        const start = performance.now();
        const response = await t.app.inject({ method: 'GET', url });
        times.push(performance.now() - start);
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
        const body = response.json();
        results += Array.isArray(body) ? body.length : 1;
      }
      times.sort((a, b) => a - b);
      console.log(
        `${kind}: lookup ${label.padEnd(17)} n=${String(urls.length).padStart(4)}  p50=${percentile(times, 50).toFixed(2)} ms  p99=${percentile(times, 99).toFixed(2)} ms  max=${times.at(-1)!.toFixed(2)} ms  (${(results / urls.length).toFixed(1)} results each)`,
      );
    }
  } finally {
    await t.close();
  }
}
