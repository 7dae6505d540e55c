// Catalogue (master data) routes: context-aware reads for everybody, staff writes for user tokens
// with catalog:write. Availability and reservation routes live in their own modules.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eventRoutes } from './events.ts';
import { gomusCatalogRoutes } from './gomus.ts';
import { museumRoutes } from './museums.ts';
import { quotaRoutes } from './quotas.ts';
import { ticketRoutes } from './tickets.ts';
import { tourRoutes } from './tours.ts';

export const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(museumRoutes);
  await app.register(ticketRoutes);
  await app.register(eventRoutes);
  await app.register(tourRoutes);
  await app.register(quotaRoutes);
  await app.register(gomusCatalogRoutes);
};
