// One dedicated PostgreSQL connection per process that LISTENs for changes which invalidate the
// in-process caches: `atrium_catalog` (src/db/sql/atrium_bump_catalog_version.sql: any master-data
// change, payload = the new instance.catalog_version) and `atrium_tokens`
// (src/db/sql/atrium_notify_tokens.sql: any token or account change).
//
// The caches are only correct while this connection is up: a notification sent while it is down
// is lost. So `connected` is false from the first sign of trouble until LISTEN is re-established,
// and every (re)connect counts as an invalidation of everything (`onReset`), because changes may
// have been missed in between. A heartbeat also compares catalog_version with the last one seen,
// which catches a connection that looks alive but silently stopped delivering.
import pg from 'pg';

export interface ListenerLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface ListenerHandlers {
  onCatalog(version: number): void;
  onTokens(): void;
  /** Connection (re)established or lost: drop everything, it may be stale. */
  onReset(): void;
}

const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 2_000;
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5_000;

export class ChangeListener {
  connected = false;
  version = -1;
  private client: pg.Client | null = null;
  private stopped = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private downSince = 0;

  constructor(
    private url: string,
    private handlers: ListenerHandlers,
    private log: ListenerLog,
  ) {}

  /** Resolves after the first attempt (connected or not): a DB hiccup at start must not block serving. */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: 'atrium-listen' });
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => {
      if (n.channel === 'atrium_catalog') {
        const v = Number(n.payload);
        if (Number.isFinite(v)) this.version = Math.max(this.version, v);
        this.handlers.onCatalog(this.version);
      } else if (n.channel === 'atrium_tokens') {
        this.handlers.onTokens();
      }
    });
    try {
      await client.connect();
      await client.query('LISTEN atrium_catalog; LISTEN atrium_tokens');
      // After LISTEN: every change from here on is notified, so the version read now plus the
      // notifications that follow describe the catalogue exactly.
      this.version = await this.readVersion(client);
      if (this.client !== client || this.stopped) return void client.end().catch(() => {});
      this.handlers.onReset();
      this.connected = true;
      if (this.attempt > 0) this.log.info({ down_ms: Date.now() - this.downSince }, 'cache listener reconnected; caches re-enabled');
      this.attempt = 0;
      this.heartbeat = setInterval(() => void this.beat(client), HEARTBEAT_MS);
      this.heartbeat.unref();
    } catch (e) {
      if (this.attempt === 0) this.log.warn({ err: (e as Error).message }, 'cache listener cannot connect; serving without caches meanwhile');
      this.lost(client);
    }
  }

  private async readVersion(client: pg.Client): Promise<number> {
    const r = await client.query<{ v: string }>('select catalog_version::text as v from instance where id = 1');
    return Number(r.rows[0]?.v ?? 0);
  }

  private async beat(client: pg.Client) {
    let timer: NodeJS.Timeout | undefined;
    try {
      const v = await Promise.race([
        this.readVersion(client),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('heartbeat timeout')), HEARTBEAT_TIMEOUT_MS))),
      ]);
      // A newer version without its notification: something was missed. Start over.
      if (v > this.version) {
        this.log.warn({ seen: this.version, current: v }, 'cache listener missed a catalogue change; resetting caches');
        this.version = v;
        this.handlers.onReset();
      }
    } catch {
      this.lost(client);
    } finally {
      clearTimeout(timer);
    }
  }

  private lost(client: pg.Client) {
    if (this.client !== client) return;
    this.client = null;
    if (this.connected) {
      this.downSince = Date.now();
      this.log.warn({}, 'cache listener lost its database connection; caches bypassed until it is back');
    }
    this.connected = false;
    this.handlers.onReset();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    if (this.stopped) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt++);
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.connected = false;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => {});
  }
}
