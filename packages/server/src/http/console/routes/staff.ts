// Staff users in the console (admins only): the list, a new user, a password reset and disabling
// or enabling a user, through domain/staff/manageStaff.ts (scope, audit entry in the verb's own
// transaction). A new user and a reset give a set-password link, mailed to the user and shown
// once (staffLink.ts); resetting a password and disabling ask on a second page first, as both
// end the user's sessions.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { reportMuseums } from '../../../domain/reports/range.ts';
import { createStaffUserAs, resetStaffPasswordAs, setStaffUserEnabled, staffUserFor, staffUsersFor } from '../../../domain/staff/manageStaff.ts';
import { STAFF_ROLES } from '../../../domain/staff/permissions.ts';
import { STAFF_PROBLEMS } from '../../../domain/staff/users.ts';
import { translator } from '../i18n.ts';
import { idsOf } from './formInput.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';
import { showLinkOnce } from './staffLink.ts';

/** The verb's field messages in the user's words (anything else is shown as given). */
const DETAILS: Record<string, string> = {
  [STAFF_PROBLEMS.email]: 'staff.error.email',
  [STAFF_PROBLEMS.taken]: 'staff.error.taken',
  [STAFF_PROBLEMS.role]: 'staff.error.role',
  [STAFF_PROBLEMS.scope]: 'staff.error.scope',
  [STAFF_PROBLEMS.name]: 'staff.error.name',
  [STAFF_PROBLEMS.locale]: 'staff.error.locale',
};

const idParam = (req: FastifyRequest) => intParam((req.params as { id: string }).id) ?? 0;

interface CreateForm { name: string; email: string; role: string; locale: string; museum_ids: number[] }

async function listPage(req: FastifyRequest, reply: FastifyReply, form?: CreateForm, problems: string[] = []) {
  const [users, museums] = await Promise.all([staffUsersFor(req.staffCtx), reportMuseums(req.staffCtx, req.consoleLocale)]);
  const titles = new Map(museums.map((m) => [m.id, m.title]));
  return renderPage(req, reply, 'staff/index', {
    title: translator(req.consoleLocale)('staff.title'),
    users: users.map((u) => ({ ...u, museumText: u.museumIds.map((id) => titles.get(id) ?? `#${id}`).join(', ') })),
    museums, roles: STAFF_ROLES, scoped: req.staffCtx.staff.museumIds.length > 0, me: req.staffCtx.staff.id,
    form: form ?? { name: '', email: '', role: 'box_office', locale: req.consoleLocale, museum_ids: [] }, problems,
  }, problems.length ? 422 : 200);
}

export const staffPages = (deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/staff', action: 'users.manage' }, async (req, reply) => listPage(req, reply));

  consoleRoute(app, { method: 'POST', url: '/staff', action: 'users.manage' }, async (req, reply) => {
    const b = req.body;
    const form: CreateForm = { name: field(b, 'name', 200), email: field(b, 'email', 254), role: field(b, 'role', 20), locale: field(b, 'locale', 2), museum_ids: idsOf(b, 'museum_ids') };
    const t = translator(req.consoleLocale);
    try {
      const r = await createStaffUserAs(req.staffCtx, { name: form.name, email: form.email, role: form.role, locale: form.locale || 'de', museumIds: form.museum_ids });
      return showLinkOnce(req, reply, deps, { kind: 'welcome', heading: t('staff.created', { email: r.user.email }), ...r });
    } catch (e) {
      if (!(e instanceof DomainError) || e.code !== 'VALIDATION_FAILED') throw e;
      return listPage(req, reply, form, (e.errors ?? [e.message]).map((m) => (DETAILS[m] ? t(DETAILS[m]!) : m)));
    }
  });

  consoleRoute(app, { method: 'POST', url: '/staff/:id/password', action: 'users.manage' }, async (req, reply) => {
    const id = idParam(req);
    const t = translator(req.consoleLocale);
    if (field(req.body, 'confirm', 1) !== '1') {
      const u = await staffUserFor(req.staffCtx, id);
      return renderPage(req, reply, 'confirm', {
        title: t('staff.reset.confirm.title'), text: t('staff.reset.confirm.text', { email: u.email }),
        action: `/console/staff/${id}/password`, button: t('staff.reset.confirm.button'), back: '/console/staff',
      });
    }
    const r = await resetStaffPasswordAs(req.staffCtx, id);
    return showLinkOnce(req, reply, deps, { kind: 'reset', heading: t('staff.reset.done', { email: r.user.email }), ...r });
  });

  consoleRoute(app, { method: 'POST', url: '/staff/:id/disable', action: 'users.manage' }, async (req, reply) => {
    const id = idParam(req);
    if (field(req.body, 'confirm', 1) !== '1') {
      const u = await staffUserFor(req.staffCtx, id);
      const t = translator(req.consoleLocale);
      return renderPage(req, reply, 'confirm', {
        title: t('staff.disable.confirm.title'), text: t('staff.disable.confirm.text', { email: u.email }),
        action: `/console/staff/${id}/disable`, button: t('staff.disable.confirm.button'), back: '/console/staff',
      });
    }
    await setStaffUserEnabled(req.staffCtx, id, false);
    return seeOther(reply, '/console/staff', 'staffdisabled');
  });

  consoleRoute(app, { method: 'POST', url: '/staff/:id/enable', action: 'users.manage' }, async (req, reply) => {
    await setStaffUserEnabled(req.staffCtx, idParam(req), true);
    return seeOther(reply, '/console/staff', 'staffenabled');
  });
};
