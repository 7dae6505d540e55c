// What the shop's pages are built with (app.ts passes it to shopPlugin).
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Ctx } from '../../domain/context.ts';
import type { Limiter } from '../../ops/limiter.ts';
import type { ShopLimits } from './limits.ts';

export interface ShopDeps {
  db: Db;
  clock: Clock;
  config: Config;
  masterData?: Ctx['masterData'];
  testing?: Ctx['testing'];
  /** The app's limiter (ops/limiter.ts); a process-local one when absent. */
  limiter?: Limiter;
  /** Per-visitor and per-address limits (limits.ts); defaults when absent. */
  limits?: ShopLimits;
}
