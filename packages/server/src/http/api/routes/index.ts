// Every /api/v4 route module, registered in one place.
import type { FastifyPluginAsync } from 'fastify';
import { availabilityRoutes } from './availability/index.ts';
import { catalogRoutes } from './catalog/index.ts';
import { customerRoutes } from './customers/index.ts';
import { metaRoutes } from './meta/index.ts';
import { orderRoutes } from './orders/index.ts';
import { reservationRoutes } from './reservations/index.ts';
import { documentRoutes } from './documents/index.ts';
import { requestRoutes } from './requests/index.ts';
import { webhookRoutes } from './webhooks/index.ts';
import { entryRoutes } from './entry/index.ts';
import { scheduleRoutes } from './schedules/index.ts';
import { paymentRoutes } from './payments/index.ts';
import { reportRoutes } from './reports/index.ts';
import { mediaRoutes } from './media/index.ts';
import { giftCardRoutes } from './giftCards/index.ts';
import { promoCodeRoutes } from './promoCodes/index.ts';
import { voucherRoutes } from './vouchers/index.ts';
import { named } from '../../plugin-name.ts';

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(named(metaRoutes));
  await app.register(named(catalogRoutes));
  await app.register(named(availabilityRoutes));
  await app.register(named(reservationRoutes));
  await app.register(named(orderRoutes));
  await app.register(named(customerRoutes));
  await app.register(named(requestRoutes));
  await app.register(named(webhookRoutes));
  await app.register(named(documentRoutes));
  await app.register(named(entryRoutes));
  await app.register(named(scheduleRoutes));
  await app.register(named(paymentRoutes));
  await app.register(named(reportRoutes));
  await app.register(named(mediaRoutes));
  await app.register(named(giftCardRoutes));
  await app.register(named(promoCodeRoutes));
  await app.register(named(voucherRoutes));
};

export { mediaFileRoutes } from './media/files.ts';
