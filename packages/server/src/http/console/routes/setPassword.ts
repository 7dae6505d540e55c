// The page of a set-password link (domain/staff/passwordLinks.ts): no sign-in, the new password
// twice, then on to sign-in. A link that is not live (used, expired, replaced, altered, unknown)
// gets one clear page and changes nothing. Attempts are counted per client address by the app's
// limiter (ops/limiter.ts): every submission and every link that is not live, so tokens cannot
// be tried out. The form is guarded like the sign-in form (double-submit token); the page sends
// no Referer, so the token in its address goes nowhere (request logs mask it: request-log.ts).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { MIN_PASSWORD_LENGTH, PASSWORD_PROBLEMS } from '../../../domain/staff/password.ts';
import { passwordLinkUser, setPasswordByLink } from '../../../domain/staff/passwordLinks.ts';
import { memoryLimiter, type Budget } from '../../../ops/limiter.ts';
import { pickLocale, translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { showError } from './errors.ts';
import { consoleRoute, field } from './kit.ts';
import { renderPage, seeOther } from './render.ts';
import { preCookie, preLoginToken, sameToken } from './security.ts';

/** Set-password attempts per client address: a person needs two or three, a guesser thousands. */
export const SET_PASSWORD_TRIES: Budget = { max: 10, windowMs: 15 * 60_000 };

const PROBLEMS: Record<string, string> = {
  [PASSWORD_PROBLEMS.mismatch]: 'setpw.error.mismatch',
  [PASSWORD_PROBLEMS.short]: 'setpw.error.short',
  [PASSWORD_PROBLEMS.long]: 'setpw.error.long',
};

export const setPasswordPages = (deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  const limiter = app.hasDecorator('limiter') ? app.limiter : memoryLimiter();
  const key = (req: FastifyRequest) => `setpw:${req.ip}`;
  const tokenOf = (req: FastifyRequest) => String((req.params as { token?: string }).token ?? '');
  const page = (req: FastifyRequest, reply: FastifyReply, data: Record<string, unknown>, status = 200) => {
    reply.header('referrer-policy', 'no-referrer');
    const t = translator(req.consoleLocale);
    return renderPage(req, reply, 'setPassword', { title: t(data.invalid ? 'setpw.invalid.title' : 'setpw.title'), min: MIN_PASSWORD_LENGTH, error: null, ...data }, status);
  };
  const notLive = async (req: FastifyRequest, reply: FastifyReply) => {
    await limiter.hit(key(req), SET_PASSWORD_TRIES);
    return page(req, reply, { invalid: true }, 404);
  };
  const throttled = (req: FastifyRequest, reply: FastifyReply, wait: number) => {
    reply.header('retry-after', String(wait));
    return showError(req, reply, 429, 'setpw.throttled');
  };

  consoleRoute(app, { method: 'GET', url: '/set-password/:token', action: 'public' }, async (req, reply) => {
    const wait = await limiter.spent(key(req), SET_PASSWORD_TRIES);
    if (wait !== null) return throttled(req, reply, wait);
    const user = await passwordLinkUser(deps, tokenOf(req));
    if (!user) return notLive(req, reply);
    // The user's own language unless they chose one on the page.
    if (field(req.query, 'lang', 2) === '') req.consoleLocale = pickLocale(user.locale, req.consoleLocale);
    return page(req, reply, { email: user.email, preCsrf: preLoginToken(req, reply), action: `/console/set-password/${tokenOf(req)}` });
  });

  consoleRoute(app, { method: 'POST', url: '/set-password/:token', action: 'public' }, async (req, reply) => {
    const b = req.body;
    req.consoleLocale = pickLocale(field(b, 'lang', 2), req.consoleLocale);
    const wait = await limiter.hit(key(req), SET_PASSWORD_TRIES);
    if (wait !== null) return throttled(req, reply, wait);
    if (!sameToken(field(b, '_csrf', 100), req.cookies[preCookie(req)])) return showError(req, reply, 403, 'error.csrf');
    const token = tokenOf(req);
    try {
      await setPasswordByLink(deps, token, { next: field(b, 'next', 256), repeat: field(b, 'repeat', 256) });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'NOT_FOUND') return page(req, reply, { invalid: true }, 404);
      if (err.code !== 'VALIDATION_FAILED') throw err;
      const user = await passwordLinkUser(deps, token);
      if (!user) return page(req, reply, { invalid: true }, 404);
      const t = translator(req.consoleLocale);
      const problem = PROBLEMS[err.message];
      return page(req, reply, {
        email: user.email, preCsrf: preLoginToken(req, reply), action: `/console/set-password/${token}`,
        error: problem ? t(problem, { min: MIN_PASSWORD_LENGTH }) : err.message,
      }, 422);
    }
    return seeOther(reply, `/console/login?lang=${req.consoleLocale}`, 'passwordset');
  });
};
