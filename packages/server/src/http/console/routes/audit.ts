// The audit log (engineer B): read-only, newest first, searchable by who, action, entity and
// museum-local date range, 50 entries a page ("older" follows the last id). Entries come from
// domain/audit/searchAudit, which applies the user's museum scope.
import type { FastifyPluginAsync } from 'fastify';
import { searchAudit } from '../../../domain/audit/searchAudit.ts';
import { addDays, isValidDate, startOfLocalDay } from '../../../domain/time.ts';
import { translator } from '../i18n.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage } from './render.ts';

const PAGE = 50;

export const auditPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/audit', action: 'audit.view' }, async (req, reply) => {
    const q = req.query;
    const t = translator(req.consoleLocale);
    const zone = req.staffCtx.config.zone;
    const form = {
      actor: field(q, 'actor', 200), action: field(q, 'action', 100), entity: field(q, 'entity', 100),
      entity_id: field(q, 'entity_id', 100), from: field(q, 'from', 20), to: field(q, 'to', 20),
    };
    const problems: string[] = [];
    for (const k of ['from', 'to'] as const) if (form[k] && !isValidDate(form[k])) problems.push(t('audit.baddate', { field: t(`reports.${k}`) }));
    if (!problems.length && form.from && form.to && form.to < form.from) problems.push(t('audit.badrange'));
    const beforeId = intParam(field(q, 'before', 20)) ?? undefined;
    const entries = problems.length ? [] : await searchAudit(req.staffCtx, {
      ...(form.actor ? { actor: form.actor } : {}),
      ...(form.action ? { action: form.action } : {}),
      ...(form.entity ? { entityType: form.entity } : {}),
      ...(form.entity_id ? { entityId: form.entity_id } : {}),
      ...(form.from ? { from: startOfLocalDay(form.from, zone) } : {}),
      ...(form.to ? { to: startOfLocalDay(addDays(form.to, 1), zone) } : {}),
      ...(beforeId ? { beforeId } : {}),
      limit: PAGE,
    });
    const more = entries.length === PAGE ? new URLSearchParams({ ...form, before: String(entries.at(-1)!.id) }).toString() : null;
    const rows = entries.map((e) => ({ ...e, beforeText: e.before === null ? '' : JSON.stringify(e.before), afterText: e.after === null ? '' : JSON.stringify(e.after) }));
    return renderPage(req, reply, 'audit/index', { title: t('audit.title'), form, rows, more, problems, zone }, problems.length ? 422 : 200);
  });
};
