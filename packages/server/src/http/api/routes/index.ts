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

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(metaRoutes);
  await app.register(catalogRoutes);
  await app.register(availabilityRoutes);
  await app.register(reservationRoutes);
  await app.register(orderRoutes);
  await app.register(customerRoutes);
  await app.register(requestRoutes);
  await app.register(webhookRoutes);
  await app.register(documentRoutes);
  await app.register(entryRoutes);
  await app.register(scheduleRoutes);
  await app.register(paymentRoutes);
  await app.register(reportRoutes);
  await app.register(mediaRoutes);
  await app.register(giftCardRoutes);
  await app.register(promoCodeRoutes);
  await app.register(voucherRoutes);
};

export { mediaFileRoutes } from './media/files.ts';
