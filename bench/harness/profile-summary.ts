// Where a server's CPU went: self time of a V8 .cpuprofile (written by `node --cpu-prof`) grouped by
// package or project file, and the busiest functions. `npm run bench -- --profile` prints it for every
// server; by hand: `npx tsx bench/harness/profile-summary.ts <file.cpuprofile>`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const project = path.match(/\/(src|rest-adapter|bench)\/(.+)$/);
  return project ? `${project[1]}/${project[2]}` : path;
}

export function summarizeProfile(file: string, top = 12): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    busy += micros;
    const where = area(url, functionName);
    areas.set(where, (areas.get(where) ?? 0) + micros);
    const fn = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + micros);
  }
  const list = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `    ${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return [
    `  busy ${(busy / 1e6).toFixed(2)} s (idle excluded); self time by area:`,
    list(areas),
    '  busiest functions:',
    list(functions),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) console.log(`${file}\n${summarizeProfile(file)}`);
}
