import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

// Routes of this area are registered here (work in progress in this session).
export const customerRoutes: FastifyPluginAsyncTypebox = async () => {};
