// Route-level access declarations (ARCHITECTURE rule 7): each route says which token classes may
// call it and which right a user token needs. Whether this account may see this record is a
// domain rule checked inside the verbs.
import type { AccessClass, RightArea } from '../../domain/principal.ts';

export interface RouteAccess {
  /** Callers without a token are served (public context). */
  anonymous: boolean;
  /** Token classes allowed. */
  classes: AccessClass[];
  /** Right a user token needs; resellers are governed by `classes` alone. */
  right?: [RightArea, 'read' | 'write'];
}

/** Readable by everybody; a token may widen what is shown. */
export const publicRead: RouteAccess = { anonymous: true, classes: ['public', 'user', 'reseller'] };

export function tokenOnly(classes: AccessClass[], right?: [RightArea, 'read' | 'write']): RouteAccess {
  return right ? { anonymous: false, classes, right } : { anonymous: false, classes };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** 'master': ETag + Cache-Control max-age + 304; 'live': Cache-Control no-store. */
    cache?: 'master' | 'live';
  }
}
