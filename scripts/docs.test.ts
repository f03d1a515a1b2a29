// The README stays a ten-minute read, every relative link of the docs leads somewhere, and
// docs/performance.md's tables are the ones scripts/bench/write-performance-doc.ts writes from the
// kept bench runs (docs/bench-runs), so no figure there is typed by hand.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BenchRun, fillDocument, sections } from './bench/write-performance-doc.ts';

const root = path.resolve(import.meta.dirname, '..');
const markdown = (folder: string) =>
  readdirSync(path.join(root, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(folder, name));
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replaceAll(' ', '-');

describe('the docs', () => {
  it('keep the README to about 10 KB', () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThan(12_000);
  });

  it('lead to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...markdown('docs'), ...markdown('docs/decisions')]) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link!)) continue;
        const [target, anchor] = link!.split('#');
        const resolved = target ? path.join(root, path.dirname(file), target) : path.join(root, file);
        if (!existsSync(resolved)) broken.push(`${file}: ${link}`);
        else if (anchor && statSync(resolved).isFile()) {
          const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.*)$/gm)].map(([, h]) => slug(h!));
          if (!headings.includes(anchor)) broken.push(`${file}: ${link}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("performance.md's tables are the script's, from the kept runs", () => {
    const folder = path.join(root, 'docs/bench-runs');
    const runs = readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as BenchRun);
    const document = readFileSync(path.join(root, 'docs/performance.md'), 'utf8');
    const filled = sections(runs);
    expect(Object.keys(filled).sort()).toEqual([
      'browse-plans',
      'checkout',
      'goals',
      'growth',
      'mix',
      'mix-million',
      'scale-out',
      'scale-out-capped',
      'soak',
      'staff',
      'throughput',
      'transfer',
    ]);
    expect(fillDocument(document, filled), 'run npx tsx scripts/bench/write-performance-doc.ts docs/bench-runs/*.json').toBe(document);
  });
});
