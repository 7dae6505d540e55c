// Where picture files live. The domain sees only MediaStore; the one implementation keeps files
// under a directory (ATRIUM_MEDIA_DIR, default <data dir>/media), one folder per picture key.
// A key names content that never changes (the upload's hash), so files are written once,
// atomically (temporary name, then rename), and served with immutable cache headers.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from '../errors.ts';

export interface MediaStore {
  /** Writes the files of one picture key (name → bytes); fails with a clear error when it cannot. */
  put(key: string, files: Map<string, Buffer>): Promise<void>;
  /** One file's bytes, or null when there is none. */
  read(key: string, name: string): Promise<Buffer | null>;
  /** Removes every file of a key. */
  remove(key: string): Promise<void>;
}

const KEY = /^[a-f0-9]{32}$/;
const NAME = /^[a-z]+\.(jpg|webp)$/;

export class FileMediaStore implements MediaStore {
  constructor(readonly dir: string) {}

  async put(key: string, files: Map<string, Buffer>): Promise<void> {
    if (!KEY.test(key)) throw new Error(`bad media key ${key}`);
    const folder = path.join(this.dir, key);
    try {
      await mkdir(folder, { recursive: true });
      for (const [name, bytes] of files) {
        const tmp = path.join(folder, `.${name}.${randomBytes(6).toString('hex')}`);
        await writeFile(tmp, bytes);
        await rename(tmp, path.join(folder, name));
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new DomainError('SERVICE_UNAVAILABLE', `the media directory ${this.dir} is not writable (${code}), so pictures cannot be stored until ATRIUM_MEDIA_DIR names a writable directory`);
    }
  }

  async read(key: string, name: string): Promise<Buffer | null> {
    if (!KEY.test(key) || !NAME.test(name)) return null;
    try {
      return await readFile(path.join(this.dir, key, name));
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await rm(path.join(this.dir, key), { recursive: true, force: true });
  }
}

const stores = new Map<string, MediaStore>();

/** The store of a media directory (one per directory and process). */
export function mediaStore(dir: string): MediaStore {
  let s = stores.get(dir);
  if (!s) stores.set(dir, (s = new FileMediaStore(dir)));
  return s;
}
