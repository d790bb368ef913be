// `npm run test:timings`: the wall time of each vitest file and each Playwright test of the last run, slowest first,
// read from the JSON reports every run writes (reports/vitest.json, reports/e2e-app.json and reports/e2e-serial.json). Pass a number to
// print that many rows of each (default 25).
import fs from 'node:fs';

const rows = Number(process.argv[2] ?? 25);

interface VitestReport {
  testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[];
}

interface PwSpec {
  title: string;
  file: string;
  line: number;
  tests: { projectName: string; results: { duration: number; retry: number }[] }[];
}
interface PwSuite {
  title: string;
  file: string;
  specs: PwSpec[];
  suites?: PwSuite[];
}

const read = <T>(file: string): T | null =>
  fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : null;
const s = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`;

const vitest = read<VitestReport>('reports/vitest.json');
if (vitest) {
  const files = vitest.testResults
    .map((f) => ({
      name: f.name.replace(`${process.cwd()}/`, ''),
      ms: f.endTime - f.startTime,
      n: f.assertionResults.length,
    }))
    .sort((a, b) => b.ms - a.ms);
  const sum = files.reduce((t, f) => t + f.ms, 0);
  console.log(`vitest: ${files.length} files, ${(sum / 1000).toFixed(0)} s summed over workers; slowest ${rows}:`);
  for (const f of files.slice(0, rows)) console.log(`${s(f.ms)}  ${String(f.n).padStart(4)} tests  ${f.name}`);
} else console.log('vitest: no report yet (reports/vitest.json): run `npx vitest run` first');

// The last run's passes (npm run test:e2e writes one report per project), or a plain `npx playwright test`'s.
const twoPasses = ['reports/e2e-app.json', 'reports/e2e-serial.json'].filter((f) => fs.existsSync(f));
const passes = (twoPasses.length ? twoPasses : ['reports/e2e.json'].filter((f) => fs.existsSync(f))).map(
  (f) => read<{ suites: PwSuite[] }>(f) as { suites: PwSuite[] },
);
const e2e = passes.length ? { suites: passes.flatMap((p) => p.suites) } : null;
if (e2e) {
  const tests: { name: string; ms: number; project: string; retried: boolean }[] = [];
  const byFile = new Map<string, number>();
  const walk = (suite: PwSuite) => {
    for (const spec of suite.specs)
      for (const t of spec.tests) {
        const ms = t.results.reduce((a, r) => a + r.duration, 0);
        tests.push({
          name: `${spec.file}:${spec.line} ${spec.title}`,
          ms,
          project: t.projectName,
          retried: t.results.length > 1,
        });
        byFile.set(spec.file, (byFile.get(spec.file) ?? 0) + ms);
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of e2e.suites) walk(suite);
  tests.sort((a, b) => b.ms - a.ms);
  const sum = tests.reduce((t, x) => t + x.ms, 0);
  console.log(
    `\nplaywright: ${tests.length} tests, ${(sum / 1000).toFixed(0)} s summed over workers; slowest ${rows}:`,
  );
  for (const t of tests.slice(0, rows))
    console.log(`${s(t.ms)}  ${t.project.padEnd(6)} ${t.retried ? 'retried ' : ''}${t.name}`);
  console.log('\nplaywright by spec file:');
  for (const [file, ms] of [...byFile].sort((a, b) => b[1] - a[1])) console.log(`${s(ms)}  ${file}`);
  // A test that passed only on its retry is a defect to find, not a pass: named here so a green run shows it.
  const retried = tests.filter((t) => t.retried);
  console.log(`\nplaywright tests that needed a retry: ${retried.length === 0 ? 'none' : retried.length}`);
  for (const t of retried) console.log(`  ${t.project.padEnd(6)} ${t.name}`);
} else console.log('\nplaywright: no report yet (reports/e2e.json): run `npm run test:e2e` first');
