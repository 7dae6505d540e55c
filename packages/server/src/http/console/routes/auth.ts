// Sign-in, sign-out, sign-out everywhere, own password and language. Sign-in always starts a new
// session (no fixation) and answers every failure alike (no user enumeration).
import type { FastifyPluginAsync } from 'fastify';
import { authenticate } from '../../../domain/staff/authenticate.ts';
import { changeOwnPassword } from '../../../domain/staff/changePassword.ts';
import { DEVICE_MAX_AGE_MS, rememberDevice } from '../../../domain/staff/devices.ts';
import { createSession, revokeAllSessions, revokeSession, SESSION_ABSOLUTE_MS } from '../../../domain/staff/sessions.ts';
import { setStaffLocale } from '../../../domain/staff/users.ts';
import { DomainError } from '../../../domain/errors.ts';
import { pickLocale, translator } from '../i18n.ts';
import { field, consoleRoute } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';
import { clearSessionCookie, deviceCookie, preCookie, preLoginToken, sameToken, setDeviceCookie, setSessionCookie } from './security.ts';
import { showError } from './errors.ts';

/** Only console paths are followed after sign-in (no open redirect). */
export function safeNext(v: string): string {
  return /^\/console\/[A-Za-z0-9/_?=&%.-]*$/.test(v) && !v.startsWith('//') ? v : '/console/day';
}

export const authPages = (deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/', action: 'public' }, async (req, reply) => seeOther(reply, req.session ? '/console/day' : '/console/login'));

  consoleRoute(app, { method: 'GET', url: '/login', action: 'public' }, async (req, reply) => {
    if (req.session) return seeOther(reply, '/console/day');
    const t = translator(req.consoleLocale);
    const next = field(req.query, 'next', 300);
    return renderPage(req, reply, 'login', { title: t('login.title'), preCsrf: preLoginToken(req, reply), next: next ? safeNext(next) : '' });
  });

  consoleRoute(app, { method: 'POST', url: '/login', action: 'public' }, async (req, reply) => {
    const body = req.body;
    req.consoleLocale = pickLocale(field(body, 'lang'), req.consoleLocale);
    const t = translator(req.consoleLocale);
    if (!sameToken(field(body, '_csrf', 100), req.cookies[preCookie(req)])) return showError(req, reply, 403, 'error.csrf');
    const email = field(body, 'email', 254);
    try {
      const device = req.cookies[deviceCookie(req)];
      const user = await authenticate(deps, { email, password: field(body, 'password', 256), address: req.ip, device });
      const s = await createSession(deps, user.id);
      setSessionCookie(req, reply, s.id, SESSION_ABSOLUTE_MS / 1000);
      setDeviceCookie(req, reply, await rememberDevice(deps, device, user.id), DEVICE_MAX_AGE_MS / 1000);
      return seeOther(reply, safeNext(field(req.query, 'next', 300)));
    } catch (err) {
      if (!(err instanceof DomainError) || (err.code !== 'UNAUTHORIZED' && err.code !== 'RATE_LIMITED')) throw err;
      const throttled = err.code === 'RATE_LIMITED';
      if (throttled) reply.header('retry-after', String(err.retryAfter ?? 900));
      const next = field(req.query, 'next', 300);
      return renderPage(req, reply, 'login', { title: t('login.title'), preCsrf: preLoginToken(req, reply), next: next ? safeNext(next) : '', email, error: t(throttled ? 'login.throttled' : 'login.failed') }, throttled ? 429 : 401);
    }
  });

  consoleRoute(app, { method: 'POST', url: '/logout', action: 'self' }, async (req, reply) => {
    await revokeSession(deps, req.session!.idHash);
    clearSessionCookie(req, reply);
    return seeOther(reply, '/console/login', 'signedout');
  });

  consoleRoute(app, { method: 'POST', url: '/logout-everywhere', action: 'self' }, async (req, reply) => {
    await revokeAllSessions(deps, req.session!.user.id);
    clearSessionCookie(req, reply);
    return seeOther(reply, '/console/login', 'signedout');
  });

  consoleRoute(app, { method: 'GET', url: '/account', action: 'self' }, async (req, reply) =>
    renderPage(req, reply, 'account', { title: translator(req.consoleLocale)('account.title') }),
  );

  consoleRoute(app, { method: 'POST', url: '/account/password', action: 'self' }, async (req, reply) => {
    const b = req.body;
    await changeOwnPassword(req.staffCtx, { current: field(b, 'current', 256), next: field(b, 'next', 256), repeat: field(b, 'repeat', 256) });
    // Every session ended, this one too: continue in a fresh one.
    const s = await createSession(deps, req.session!.user.id);
    setSessionCookie(req, reply, s.id, SESSION_ABSOLUTE_MS / 1000);
    return seeOther(reply, '/console/account', 'passwordchanged');
  });

  consoleRoute(app, { method: 'POST', url: '/locale', action: 'self' }, async (req, reply) => {
    const locale = pickLocale(field(req.body, 'locale'), req.consoleLocale);
    await setStaffLocale(deps, req.session!.user.id, locale);
    return seeOther(reply, safeNext(field(req.body, 'back', 300)));
  });
};
