import { expect } from 'vitest';
import type { TestServer } from './server.js';

export interface EndedJob {
  state: string;
  processedRows: number;
  rejectedRows: number;
  errors: { row: number; field: string; message: string }[];
  [field: string]: unknown;
}

/** GET /api/import/status/<jobId> until the job has ended (COMPLETED or FAILED). */
export async function waitForJob(server: TestServer, token: string, jobId: string): Promise<EndedJob> {
  for (let i = 0; i < 1200; i++) {
    const res = await server.call('GET', `/api/import/status/${jobId}`, { token });
    expect(res.status).toBe(200);
    if (res.body.state === 'COMPLETED' || res.body.state === 'FAILED') return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not end`);
}

/** POST /api/import/<path>, then the job once it has COMPLETED. */
export async function importRows(server: TestServer, token: string, path: string, rows: unknown[]): Promise<EndedJob> {
  const res = await server.call('POST', `/api/import/${path}`, { token, body: rows });
  expect(res.status).toBe(202);
  const job = await waitForJob(server, token, res.body.jobId);
  expect(job.state).toBe('COMPLETED');
  return job;
}
