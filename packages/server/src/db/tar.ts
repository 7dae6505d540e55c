// A minimal ustar writer and reader for the embedded database's backups (db/embedded-backup.ts):
// regular files and directories only, streamed (no file is held in memory whole). The install
// brings no tar library and `atrium backup` must not depend on host tools.
import fs from 'node:fs';
import path from 'node:path';

const BLOCK = 512;
const CHUNK = 1 << 20;

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\0`;
}

export function header(name: string, type: 'file' | 'dir', size: number, mode: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 154);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (cut <= 0 || Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155) throw new Error(`path too long for a backup archive: ${name}`);
  }
  h.write(base, 0);
  h.write(octal(mode & 0o7777, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(Math.floor(mtime / 1000), 12), 136);
  h.write('        ', 148);
  h.write(type === 'dir' ? '5' : '0', 156);
  h.write('ustar\x0000', 257);
  h.write(prefix, 345);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** One file as tar blocks: its size when opened is what is stored (zero-padded if it shrank meanwhile). */
export async function* fileEntry(name: string, file: string): AsyncGenerator<Buffer> {
  let fd: fs.promises.FileHandle;
  try {
    fd = await fs.promises.open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // removed while walking (a temp file)
    throw e;
  }
  try {
    const st = await fd.stat();
    yield header(name, 'file', st.size, st.mode, st.mtimeMs);
    let left = st.size;
    while (left > 0) {
      const buf = Buffer.alloc(Math.min(CHUNK, left));
      const { bytesRead } = await fd.read(buf, 0, buf.length, st.size - left);
      left -= buf.length;
      yield bytesRead === buf.length ? buf : Buffer.concat([buf.subarray(0, bytesRead), Buffer.alloc(buf.length - bytesRead)]);
      if (bytesRead === 0) {
        yield Buffer.alloc(left);
        left = 0;
      }
    }
    yield padding(st.size);
  } finally {
    await fd.close();
  }
}

export const end = (): Buffer => Buffer.alloc(BLOCK * 2);

/** Extracts a tar stream below `into`; names must stay inside it. Returns the names extracted. */
export async function extract(source: AsyncIterable<Buffer>, into: string): Promise<string[]> {
  const names: string[] = [];
  let pending: Buffer = Buffer.alloc(0);
  let fd: number | undefined;
  let left = 0;
  let skip = 0;
  for await (const chunk of source) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (fd !== undefined || left > 0) {
        const n = Math.min(left, pending.length);
        if (n === 0) break;
        if (fd !== undefined) fs.writeSync(fd, pending, 0, n);
        pending = pending.subarray(n);
        left -= n;
        if (left > 0) break;
        if (fd !== undefined) fs.closeSync(fd);
        fd = undefined;
        continue;
      }
      if (skip > 0) {
        const n = Math.min(skip, pending.length);
        pending = pending.subarray(n);
        skip -= n;
        if (skip > 0) break;
        continue;
      }
      if (pending.length < BLOCK) break;
      const h = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (h.every((b) => b === 0)) continue;
      const field = (at: number, len: number) => h.subarray(at, at + len).toString('utf8').replace(/\0.*$/s, '');
      const prefix = field(345, 155);
      const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
      const size = parseInt(field(124, 12).trim() || '0', 8);
      const mode = parseInt(field(100, 8).trim() || '0', 8) & 0o777;
      const target = path.resolve(into, name);
      if (!target.startsWith(path.resolve(into) + path.sep)) throw new Error(`unsafe path in backup archive: ${name}`);
      names.push(name.replace(/\/$/, ''));
      if (h[156] === 0x35) {
        fs.mkdirSync(target, { recursive: true, mode });
        fs.chmodSync(target, mode);
      } else if (h[156] === 0x30 || h[156] === 0) {
        fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        fd = fs.openSync(target, 'w', mode);
        left = size;
        if (size === 0) {
          fs.closeSync(fd);
          fd = undefined;
        }
      } else {
        throw new Error(`unsupported entry in backup archive: ${name}`);
      }
      skip = padding(size).length;
      if (fd === undefined && size === 0) continue;
    }
  }
  if (fd !== undefined) fs.closeSync(fd);
  if (left > 0) throw new Error('the backup archive is truncated');
  return names;
}
