// What the console's pages are built with (app.ts passes it to consolePlugin). Its own module, so
// the page modules and the plugin that registers them do not import each other.
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../domain/clock.ts';
import type { Ctx } from '../../../domain/context.ts';

export interface ConsoleDeps {
  db: Db;
  clock: Clock;
  config: Config;
  masterData?: Ctx['masterData'];
}
