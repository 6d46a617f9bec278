// The latency probe of the import part of `npm run bench`, its own process so that the bench's posting
// does not delay its clock. Arguments: url, API key, output file. Sends one GET at a time, back to
// back, until SIGTERM; then writes every request's start (epoch ms), latency (ms) and status as JSON.
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [url, key, out] = process.argv.slice(2);
if (!url || !key || !out) throw new Error('usage: import-probe.ts <url> <api key> <output file>');

const samples: [number, number, number][] = [];
let stopping = false;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function once(): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const t0 = performance.now();
    const req = request(url!, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => {
        samples.push([started, performance.now() - t0, res.statusCode ?? 0]);
        resolve();
      });
    });
    req.on('error', () => {
      samples.push([started, performance.now() - t0, 0]);
      setTimeout(resolve, 50);
    });
    req.end();
  });
}

process.on('SIGTERM', () => {
  stopping = true;
});

await once();
process.stdout.write('ready\n');
while (!stopping) await once();
writeFileSync(out, JSON.stringify(samples));
agent.destroy();
