// The data directory (ATRIUM_DATA_DIR: the embedded cluster, uploads, mail, the lock) is private:
// made 0700, and an existing one with group or other bits is tightened at start, with a line
// saying so. As root with the embedded PostgreSQL the search bit for others stays (enter by name,
// never list): the database user must reach its cluster below (embedded-host.ts, openPathTo).
import fs from 'node:fs';
import path from 'node:path';
import { explainFsError } from './embedded-host.ts';

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

export function secureDataDir(dir: string, opts: { keepSearch: boolean }, log: (m: string) => void): void {
  try {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const st = fs.statSync(dir);
    if (!st.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
    const allowed = opts.keepSearch ? 0o701 : 0o700;
    if ((st.mode & 0o777 & ~allowed) === 0) return;
    const tightened = st.mode & allowed;
    try {
      fs.chmodSync(dir, tightened);
    } catch (e) {
      // Not ours to change (another user's directory): say so, the start goes on as before.
      log(`the data directory ${dir} is open to other users (mode ${octal(st.mode)}) and its mode could not be changed (${(e as NodeJS.ErrnoException).code}): make it private with chmod 700`);
      return;
    }
    log(`tightened the data directory ${dir} from mode ${octal(st.mode)} to ${octal(tightened)}: only its owner may read it`);
  } catch (e) {
    throw explainFsError(e, dir);
  }
}
