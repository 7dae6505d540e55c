// Entry-control routes outside /api/v4: the go~mus v3 entry API and the /scan page. One plugin,
// registered once at the root by app.ts.
import type { FastifyPluginAsync } from 'fastify';
import { gomusEntryRoutes } from './gomus.ts';
import { scanPage } from './page.ts';

export const entryRootRoutes: FastifyPluginAsync = async (app) => {
  await app.register(gomusEntryRoutes, { prefix: '/api/v3' });
  await app.register(scanPage);
};
