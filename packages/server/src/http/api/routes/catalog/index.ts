// Catalogue (master data) routes: context-aware reads for everybody, staff writes for user tokens
// with catalog:write. Availability and reservation routes live in their own modules.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eventRoutes } from './events.ts';
import { gomusCatalogRoutes } from './gomus.ts';
import { museumRoutes } from './museums.ts';
import { quotaRoutes } from './quotas.ts';
import { ticketRoutes } from './tickets.ts';
import { tourRoutes } from './tours.ts';
import { named } from '../../../plugin-name.ts';

export const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(named(museumRoutes));
  await app.register(named(ticketRoutes));
  await app.register(named(eventRoutes));
  await app.register(named(tourRoutes));
  await app.register(named(quotaRoutes));
  await app.register(named(gomusCatalogRoutes));
};
