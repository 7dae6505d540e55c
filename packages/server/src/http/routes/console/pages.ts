// Every console page module, registered in this order under /console. Add one line per module.
import type { FastifyPluginAsync } from 'fastify';
import { authPages } from './auth.ts';
import type { ConsoleDeps } from './plugin.ts';
import { auditPages } from './audit.ts';
import { reportPages } from './reports.ts';

export const PAGES: Array<(deps: ConsoleDeps) => FastifyPluginAsync> = [authPages, reportPages, auditPages];
