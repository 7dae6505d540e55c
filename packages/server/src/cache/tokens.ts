// Token resolution cache: sha256(token) → principal, per process. Saves the token lookup on every
// authenticated request. Revocation reaches every node within milliseconds: any change to
// api_tokens or accounts notifies `atrium_tokens` at commit (src/db/sql/atrium_notify_tokens.sql)
// and every process drops all cached principals when the notification arrives (asynchronously to
// the commit); while the listener is disconnected the cache is bypassed entirely. A token's own end
// (expires_at, or a revocation scheduled by a rotation with overlap) is checked on every hit. Only
// successful resolutions are cached: unknown tokens cannot fill memory.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiTokens } from '../db/schema/index.ts';
import { Lru } from './lru.ts';

/** The uncached lookup and the token's stored hash: the domain's (accounts/), handed in by app.ts. */
export interface TokenSource<P> {
  /** Resolves a token to its principal; its errors (unknown, revoked, expired …) propagate. */
  resolve(db: Db, instanceId: string, token: string, now: Date): Promise<P>;
  /** The value stored in api_tokens.token_hash for this token. */
  hash(token: string): string;
}

/** Even without notifications an entry lives at most this long (defence in depth). */
const TTL_MS = 60_000;

interface Entry {
  /** What the source resolved the token to (one source per process: app.ts's). */
  principal: unknown;
  /** The token stops working at this instant (ms), or never. */
  endsAt: number;
}

export class TokenCache {
  private lru = new Lru<Entry>(10_000, 16 * 1024 * 1024);

  constructor(private isLive: () => boolean) {}

  clear(): void {
    this.lru.clear();
  }

  async resolve<P>(db: Db, instanceId: string, token: string, now: Date, source: TokenSource<P>): Promise<P> {
    if (!this.isLive()) return source.resolve(db, instanceId, token, now);
    const hash = source.hash(token);
    const t = now.getTime();
    const hit = this.lru.get(hash, Date.now());
    if (hit && hit.endsAt > t) return hit.principal as P;
    const gen = this.lru.gen;
    // Errors (unknown, revoked, expired, disabled …) propagate with their own message.
    const principal = await source.resolve(db, instanceId, token, now);
    const [row] = await db
      .select({ expiresAt: apiTokens.expiresAt, revokedAt: apiTokens.revokedAt })
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hash));
    const ends = [row?.expiresAt, row?.revokedAt].filter((d): d is Date => d instanceof Date).map((d) => d.getTime());
    const endsAt = row ? Math.min(Infinity, ...ends) : -Infinity;
    if (this.isLive()) this.lru.set(hash, { principal, endsAt }, 512, Date.now() + TTL_MS, gen);
    return principal;
  }
}
