import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The file in a PGlite folder that names the process holding it. */
export const LOCK_FILE = 'scm-owner.json';

interface Owner {
  pid: number;
  command: string;
  since: string;
}

/** The folder is held by another live process: PGlite is single-user, two processes would lose writes. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, owner: Owner) {
    super(
      `the database folder ${dataDir} is in use by process ${owner.pid} (${owner.command}, since ${owner.since}): ` +
        'the embedded database has one user at a time. Stop that process first (admin commands need the server stopped), ' +
        'or set DATA_DIR to another folder, or use PostgreSQL (DATABASE_URL) to share a database between processes.',
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(file: string): Promise<Owner | null> {
  try {
    const owner = JSON.parse(await readFile(file, 'utf8')) as Owner;
    return Number.isInteger(owner.pid) ? owner : null;
  } catch {
    return null;
  }
}

/**
 * Takes the folder for this process, or refuses at once when a live process holds it. A lock left by a
 * process that died (kill -9, power loss) is taken over. Returns the release.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, LOCK_FILE);
  const me: Owner = { pid: process.pid, command: process.argv.slice(1).map((a) => a.split('/').slice(-2).join('/')).join(' ').slice(0, 200), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
      return async () => {
        const owner = await ownerOf(file);
        if (owner?.pid === process.pid) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await ownerOf(file);
    if (owner && (owner.pid === process.pid || alive(owner.pid))) throw new DataDirInUseError(dataDir, owner);
    // Left by a process that is gone (or half written by one that died while writing it).
    await rm(file, { force: true });
  }
  throw new Error(`could not take the database folder ${dataDir}: its lock file ${LOCK_FILE} keeps changing`);
}
