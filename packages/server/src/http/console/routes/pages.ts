// Every console page module, registered in this order under /console. Add one line per module.
import type { FastifyPluginAsync } from 'fastify';
import { authPages } from './auth.ts';
import { dayPages } from './day.ts';
import { orderPages } from './orders.ts';
import { orderCancelPages } from './orderCancel.ts';
import { requestPages } from './requests.ts';
import { salePages } from './sale.ts';
import { closingPages } from './closing.ts';
import type { ConsoleDeps } from './deps.ts';
import { auditPages } from './audit.ts';
import { reportPages } from './reports.ts';
import { closurePages } from './closures.ts';
import { schedulePages } from './schedules.ts';
import { eventDatePages } from './eventDates.ts';
import { partnerPages } from './partners.ts';
import { webhookPages } from './webhooks.ts';
import { paymentPages } from './payments.ts';
import { paymentReportPages } from './paymentReports.ts';
import { shopSettingsPages } from './shopSettings.ts';
import { staffPages } from './staff.ts';
import { giftCardPages } from './giftCards.ts';
import { giftCardReportPages } from './giftCardReports.ts';
import { promoCodePages } from './promoCodes.ts';
import { saleGiftCardPages } from './saleGiftCards.ts';
import { picturePages } from './pictures.ts';
import { setPasswordPages } from './setPassword.ts';

export const PAGES: Array<(deps: ConsoleDeps) => FastifyPluginAsync> = [authPages, dayPages, orderPages, orderCancelPages, paymentPages, salePages, closingPages, requestPages, schedulePages, eventDatePages, closurePages, partnerPages, webhookPages, reportPages, paymentReportPages, auditPages, shopSettingsPages, staffPages,
  giftCardPages, saleGiftCardPages, promoCodePages, giftCardReportPages, picturePages, setPasswordPages];
