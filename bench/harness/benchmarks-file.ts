// BENCHMARKS.md holds the method and the latest section of each benchmark; every older section lives in
// bench/history.md, newest first. A new run's section replaces the latest of its kind, which moves to
// the top of the history.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HISTORY_HEADER = `# Benchmark history

Every section BENCHMARKS.md held before a newer run of the same benchmark replaced it, newest first.
The method is described at the top of [BENCHMARKS.md](../BENCHMARKS.md).
`;

const HISTORY_LINK = '\nOlder runs of every benchmark: [bench/history.md](bench/history.md).\n';

/** Which benchmark a section reports, from its heading (the date and the run's mode left out). */
export function benchmarkKind(heading: string): string {
  if (/Transfer recommendations/.test(heading)) return 'transfers';
  const rest = heading.replace(/^## /, '').replace(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC/, '').replace(/\((full|quick)\)/, '').replace(/\(`--[a-z-]+`\)/, '');
  const kind = rest.replace(/^,\s*/, '').trim();
  return kind === '' ? 'products' : kind;
}

interface Parsed {
  header: string;
  sections: string[];
}

/** The text before the first `## ` heading, and each section from its heading. */
export function splitSections(text: string): Parsed {
  const parts = text.split(/^(?=## )/m);
  const header = parts[0]!.startsWith('## ') ? '' : parts.shift()!;
  return { header, sections: parts.map((part) => part.replace(/\n*$/, '\n')) };
}

const heading = (section: string) => section.split('\n', 1)[0]!;

/** Puts `section` into BENCHMARKS.md in place of the latest one of its kind, moving that one to the history. */
export function recordBenchmarkSection(root: string, section: string, header: string): void {
  const file = join(root, 'BENCHMARKS.md');
  const historyFile = join(root, 'bench/history.md');
  const current = splitSections(existsSync(file) ? readFileSync(file, 'utf8').replace(HISTORY_LINK, '') : header);
  const kind = benchmarkKind(heading(section));
  const index = current.sections.findIndex((s) => benchmarkKind(heading(s)) === kind);
  const replaced = index >= 0 ? current.sections.splice(index, 1, section.replace(/\n*$/, '\n'))[0] : undefined;
  if (index < 0) current.sections.push(section.replace(/\n*$/, '\n'));
  writeFileSync(file, `${current.header.replace(/\n*$/, '\n\n')}${current.sections.join('\n')}${HISTORY_LINK}`);
  if (!replaced) return;
  const history = splitSections(existsSync(historyFile) ? readFileSync(historyFile, 'utf8') : HISTORY_HEADER);
  writeFileSync(historyFile, `${(history.header || HISTORY_HEADER).replace(/\n*$/, '\n\n')}${[replaced, ...history.sections].join('\n')}`);
}
