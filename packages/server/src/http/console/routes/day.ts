// The day sheet: one date (default today), every museum of the user's scope.
import type { FastifyPluginAsync } from 'fastify';
import { daySheet } from '../../../domain/staff/daySheet.ts';
import { addDays } from '../../../domain/time.ts';
import { translator } from '../i18n.ts';
import { consoleRoute, field } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage } from './render.ts';

export const dayPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/day', action: 'day.view' }, async (req, reply) => {
    const date = field(req.query, 'date', 10);
    const sheet = await daySheet(req.staffCtx, { ...(date ? { date } : {}), locale: req.consoleLocale });
    return renderPage(req, reply, 'day', {
      title: translator(req.consoleLocale)('day.title'),
      sheet, prev: addDays(sheet.date, -1), next: addDays(sheet.date, 1),
    });
  });
};
