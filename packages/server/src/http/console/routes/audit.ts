// The audit log (admins): read-only, newest first, filtered by who (part of the email, or where the
// change came from: staff, command line, system), what (the kind of change), object and
// museum-local date range, 50 entries a page ("older" follows the last id). Each entry reads as
// who, when, what and a table of the changed fields (auditEntries.ts). Entries come from
// domain/audit/searchAudit, which applies the user's museum scope.
import type { FastifyPluginAsync } from 'fastify';
import { searchAudit } from '../../../domain/audit/searchAudit.ts';
import { reportMuseums } from '../../../domain/reports/range.ts';
import { addDays, isValidDate, startOfLocalDay } from '../../../domain/time.ts';
import { MESSAGES, translator } from '../i18n.ts';
import { actionChoices, auditEntryView } from './auditEntries.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage } from './render.ts';

const PAGE = 50;
const SOURCES = ['staff', 'cli', 'system'] as const;
type Source = (typeof SOURCES)[number];

export const auditPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/audit', action: 'audit.view' }, async (req, reply) => {
    const q = req.query;
    const t = translator(req.consoleLocale);
    const zone = req.staffCtx.config.zone;
    const form = {
      actor: field(q, 'actor', 200), source: field(q, 'source', 10), action: field(q, 'action', 100), entity: field(q, 'entity', 100),
      entity_id: field(q, 'entity_id', 100), from: field(q, 'from', 20), to: field(q, 'to', 20),
    };
    const problems: string[] = [];
    for (const k of ['from', 'to'] as const) if (form[k] && !isValidDate(form[k])) problems.push(t('audit.baddate', { field: t(`reports.${k}`) }));
    if (!problems.length && form.from && form.to && form.to < form.from) problems.push(t('audit.badrange'));
    const source = (SOURCES as readonly string[]).includes(form.source) ? (form.source as Source) : undefined;
    const beforeId = intParam(field(q, 'before', 20)) ?? undefined;
    const [entries, museums] = await Promise.all([
      problems.length ? [] : searchAudit(req.staffCtx, {
        ...(form.actor ? { actor: form.actor } : {}),
        ...(source ? { source } : {}),
        ...(form.action ? { action: form.action } : {}),
        ...(form.entity ? { entityType: form.entity } : {}),
        ...(form.entity_id ? { entityId: form.entity_id } : {}),
        ...(form.from ? { from: startOfLocalDay(form.from, zone) } : {}),
        ...(form.to ? { to: startOfLocalDay(addDays(form.to, 1), zone) } : {}),
        ...(beforeId ? { beforeId } : {}),
        limit: PAGE,
      }),
      reportMuseums(req.staffCtx, req.consoleLocale),
    ]);
    const titles = new Map(museums.map((m) => [m.id, m.title]));
    const more = entries.length === PAGE ? new URLSearchParams({ ...form, before: String(entries.at(-1)!.id) }).toString() : null;
    const rows = entries.map((e) => ({ ...auditEntryView(t, e), museum: e.museumId === null ? null : (titles.get(e.museumId) ?? `#${e.museumId}`) }));
    const kinds = actionChoices(t, Object.keys(MESSAGES[req.consoleLocale]));
    return renderPage(req, reply, 'audit/index', { title: t('audit.title'), form, rows, more, problems, zone, kinds, sources: SOURCES }, problems.length ? 422 : 200);
  });
};
