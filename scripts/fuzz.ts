/**
 * `npm run fuzz -- --runs 10000`: the request fuzzing of the test suite (test/fuzz/), with more cases per
 * service. Prints what was sent and answered per service; exits 1 at the first violation (its seed and
 * counterexample are printed; FUZZ_SEED=<seed> in the test or --seed here replays it).
 */
import { commandLine } from '../pipeline/lib/command-line.ts';
import { fuzzRoutes } from '../test/fuzz/check.ts';
import { FAIR_IDENTIFIERS, fuzzTarget } from '../test/fuzz/apps.ts';

const HELP = `Usage: npm run fuzz -- [--runs N] [--seed S] [--service frame|corpus|fair ...]

Sends N generated requests (default 10000) to every route of each service through Fastify's inject, over a
fixture build, with every upstream on loopback mocks. Fails on a 5xx, a hang (15 s) or an error body that is
not the shared one.
  --runs N       cases per service (default 10000)
  --seed S       fast-check seed (replays a failure)
  --service X    only this service (repeatable)
  -h, --help     show this help
`;

const values = commandLine(HELP, {
  runs: { type: 'string', default: '10000' },
  seed: { type: 'string' },
  service: { type: 'string', multiple: true },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`--runs must be a whole number above 0, not ${values.runs}\n`);
  process.exit(2);
}
const services = values.service ?? ['frame', 'corpus', 'fair'];
const unknown = services.filter((s) => !['frame', 'corpus', 'fair'].includes(s));
if (unknown.length > 0) {
  process.stderr.write(`unknown --service ${unknown.join(', ')}; allowed: frame, corpus, fair\n`);
  process.exit(2);
}

process.stderr.write('fuzz: building the fixture and starting the app…\n');
const target = await fuzzTarget();
let failed = false;
try {
  for (const service of services) {
    const started = performance.now();
    const routes = await target.routes(`/${service}`);
    process.stderr.write(`fuzz ${service}: ${runs} cases over ${routes.length} routes…\n`);
    try {
      const r = await fuzzRoutes(target.app, routes, { runs, identifiers: FAIR_IDENTIFIERS, ...(values.seed ? { seed: Number(values.seed) } : {}) });
      const secs = (performance.now() - started) / 1000;
      process.stdout.write(
        `fuzz ${service}: ${r.cases} cases in ${secs.toFixed(1)} s, 0 violations; statuses ${JSON.stringify(r.statuses)}; slowest ${r.slowestMs.toFixed(0)} ms\n`,
      );
    } catch (err) {
      failed = true;
      process.stdout.write(`fuzz ${service}: VIOLATION\n${(err as Error).message}\n`);
    }
  }
} finally {
  await target.close();
}
process.exit(failed ? 1 : 0);
