// Every /api/v4 route module, registered in one place.
import type { FastifyPluginAsync } from 'fastify';
import { metaRoutes } from './meta/index.ts';

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(metaRoutes);
};
