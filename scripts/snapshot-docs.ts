/**
 * `npm run docs:snapshot [-- --check]`: writes the column reference of snapshots/README.md from the table
 * specs in contracts/frame/snapshot.ts, so the docs cannot drift from the validator. --check fails when the
 * README is out of date (the test suite runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TABLE_NAMES, TABLES } from '../contracts/frame/snapshot.ts';

export const README = join(import.meta.dirname, '../snapshots/README.md');
const BEGIN = '<!-- BEGIN GENERATED: npm run docs:snapshot -->';
const END = '<!-- END GENERATED -->';

export function generatedSection(): string {
  const parts = [BEGIN, ''];
  for (const t of TABLE_NAMES) {
    const spec = TABLES[t];
    parts.push(`### \`${spec.file}\``, '', spec.doc, '');
    parts.push(`Key: ${spec.key.map((k) => `\`${k}\``).join(' + ')} (unique).`);
    for (const r of spec.refs) parts.push(`\`${r.column}\` must name a row of \`${TABLES[r.table].file}\` (\`${r.target}\`).`);
    if (spec.everyWork) parts.push('Exactly one row per work of `works.csv`, or none at all (a snapshot without this layer).');
    parts.push('', '| column | type | meaning |', '|---|---|---|');
    for (const c of spec.columns) parts.push(`| \`${c.name}\` | ${c.duck.toLowerCase()} | ${c.doc.replaceAll('|', '\\|')} |`);
    parts.push('');
  }
  parts.push(END);
  return parts.join('\n');
}

export function renderReadme(current: string): string {
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${README} lacks the generated-section markers`);
  return current.slice(0, start) + generatedSection() + current.slice(end + END.length);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(
      'Usage: npm run docs:snapshot [-- --check]\n\nRewrites the column reference in snapshots/README.md from contracts/frame/snapshot.ts; --check only\nreports whether it is up to date (exit 1 when not).\n',
    );
    process.exit(0);
  }
  const current = readFileSync(README, 'utf8');
  const next = renderReadme(current);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      process.stderr.write('snapshots/README.md is out of date: run `npm run docs:snapshot`\n');
      process.exit(1);
    }
  } else writeFileSync(README, next);
}
