// Pictures of catalogue records (docs/gomus-compatibility.md): upload as multipart, read, delete.
// An upload is not resent after a timeout (its outcome is unknown; a repeat would add a second
// picture), so it is sent once.
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { MediaRecord, MediaUpload } from '../types.ts';
import type { WriteOptions } from './crud.ts';

const EP = {
  upload: endpoint('POST', '/media'),
  get: endpoint('GET', '/media/{id}'),
  remove: endpoint('DELETE', '/media/{id}'),
};

export class Media {
  constructor(private readonly core: Core) {}

  upload(input: MediaUpload, o: WriteOptions = {}): Promise<MediaRecord> {
    const form = new FormData();
    form.set('target_type', input.target_type);
    form.set('target_id', String(input.target_id));
    for (const k of ['title', 'description', 'copyright_info'] as const) if (input[k] !== undefined) form.set(k, input[k]!);
    const blob = input.file instanceof Blob ? input.file : new Blob([new Uint8Array(input.file)]);
    form.set('file', blob, input.filename ?? 'picture');
    return this.core.one(EP.upload, 'media', { ...o, body: form });
  }
  get(id: number, o: ReadOptions = {}): Promise<MediaRecord> {
    return this.core.one(EP.get, 'media', { ...o, params: { id } });
  }
  async delete(id: number, o: WriteOptions = {}): Promise<void> {
    await this.core.json(EP.remove, { ...o, params: { id } });
  }
}
