// A master-data memo (domain/context.ts) that keeps everything and is never cleared: as if no
// change notice had arrived. For tests of what is kept per catalogue version (ADR 0022, 0040).
import type { MasterDataMemo } from '../../src/domain/context.ts';

export class StaleMemo implements MasterDataMemo {
  readonly keeping = true;
  readonly values = new Map<string, unknown>();
  /** Loads of keys that start with `prefix`. */
  loads = 0;

  constructor(private prefix: string) {}

  async memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.values.has(key)) return this.values.get(key) as T;
    if (key.startsWith(this.prefix)) this.loads++;
    const v = await load();
    this.values.set(key, v);
    return v;
  }

  /** The kept values of keys that start with `prefix`, with their keys. */
  kept<V>(): Array<[string, V]> {
    return [...this.values].filter(([k]) => k.startsWith(this.prefix)) as Array<[string, V]>;
  }
}
