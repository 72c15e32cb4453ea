import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** The code of the error a process gets when another one holds the embedded database. */
export const DATA_DIR_IN_USE = 'DATA_DIR_IN_USE';

/** Whether a process runs: it answers signal 0 and is not a zombie waiting for its parent to read its end. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (name) state …"; Z is a process that ended and was not reaped yet.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Holds DATA_DIR's embedded database for this process: PGlite is one process's, and a second one
 * writing the same folder (`npm run staff` while the server runs) would go unseen by the first, or
 * worse. A file beside the database names the process holding it; one left by a process that ended
 * (a kill -9) is taken over. Returns the release; throws an error coded DATA_DIR_IN_USE, with a
 * message an operator can act on, while another running process holds it.
 */
export function holdDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      const release = () => {
        process.off('exit', release);
        try {
          // Only our own: a process that took over a stale file keeps its.
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
        } catch {
          // Gone already (the folder removed with it): nothing to let go.
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number;
    try {
      holder = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // released meanwhile: take it
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder)) {
      throw Object.assign(
        new Error(
          `DATA_DIR ${dataDir} holds the embedded database of a running process (pid ${holder}, likely the server): stop it first, then run this again (PGlite is one process's), or use DATABASE_URL.`,
        ),
        { code: DATA_DIR_IN_USE },
      );
    }
    // Left by a process that ended, or by this one: taken over.
    rmSync(file, { force: true });
  }
  throw new Error(`DATA_DIR ${dataDir}: could not take ${file}`);
}
