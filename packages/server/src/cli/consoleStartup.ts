// What `atrium serve` says about the staff console: in demo mode it creates the demo users (when
// there are none) and prints where and how to sign in; otherwise, with no staff user yet, one
// sentence on how to create the first admin.
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { systemClock } from '../domain/clock.ts';
import { countStaffUsers, DEMO_ADMIN, DEMO_DESK, DEMO_PASSWORD, ensureDemoStaff } from '../domain/staff/demoStaff.ts';

export async function consoleStartup(database: Database, config: Config): Promise<(base: string) => string[]> {
  if (config.demo) {
    await ensureDemoStaff({ db: database.db, clock: systemClock });
    return (base) => [
      `  console:   ${base}/console  (demo sign-in: ${DEMO_ADMIN} or ${DEMO_DESK}, password ${DEMO_PASSWORD})`,
    ];
  }
  if ((await countStaffUsers(database.db)) === 0) {
    return (base) => [
      `  console:   ${base}/console has no staff user yet; create the first admin with: npx atrium user create --email you@example.org --role admin`,
    ];
  }
  return (base) => [`  console:   ${base}/console`];
}
