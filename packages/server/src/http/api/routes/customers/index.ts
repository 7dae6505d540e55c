// Customers (spec 2.2, 2.3; docs/api-contract.md §8). Users need customers:read / customers:write and see the
// customers of their museum scope; resellers see only their own (domain/customers/scope.ts).
// Staff also export and erase a person (GDPR; docs/operations.md, "GDPR export and erase").
import { unwrap } from '../../unwrap.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tokenOnly } from '../../access.ts';
import { errorResponses } from '../../schemas/common.ts';
import { CustomerEnvelope, CustomerInput, CustomerList, CustomerParam, CustomerQuery } from '../../schemas/customers.ts';
import { createCustomer } from '../../../../domain/customers/createCustomer.ts';
import { getCustomer } from '../../../../domain/customers/getCustomer.ts';
import { listCustomers } from '../../../../domain/customers/listCustomers.ts';
import { updateCustomer } from '../../../../domain/customers/updateCustomer.ts';
import { eraseCustomer } from '../../../../domain/gdpr/eraseCustomer.ts';
import { exportCustomer } from '../../../../domain/gdpr/exportCustomer.ts';
import { CustomerErasure, CustomerExport } from '../../schemas/gdpr.ts';

const write = tokenOnly(['user', 'reseller'], ['customers', 'write']);
const read = tokenOnly(['user', 'reseller'], ['customers', 'read']);
const tags = ['customers'];
const staffRead = tokenOnly(['user'], ['customers', 'read']);
const staffWrite = tokenOnly(['user'], ['customers', 'write']);

export const customerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/customers',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('customer'),
      schema: {
        tags,
        summary: 'Create a customer; a repeat with a known foreign_id and the same content returns the existing one (200)',
        body: CustomerInput,
        response: { 200: CustomerEnvelope, 201: CustomerEnvelope, ...errorResponses(400, 401, 403, 409, 415, 422) },
      },
    },
    async (req, reply) => {
      const { customer, replayed } = await createCustomer(req.ctx, req.body);
      if (replayed) reply.header('idempotent-replayed', 'true');
      reply.code(replayed ? 200 : 201);
      return { customer };
    },
  );

  app.put(
    '/customers',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('customer'),
      schema: {
        tags,
        summary: 'Update the customer named by foreign_id in the body; only the given fields change',
        body: CustomerInput,
        response: { 200: CustomerEnvelope, ...errorResponses(400, 401, 403, 404, 409, 415, 422) },
      },
    },
    async (req) => ({ customer: await updateCustomer(req.ctx, { fields: req.body }) }),
  );

  app.put(
    '/customers/:id',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('customer'),
      schema: {
        tags,
        summary: 'Update a customer by numeric id or foreign_id; only the given fields change',
        params: CustomerParam,
        body: CustomerInput,
        response: { 200: CustomerEnvelope, ...errorResponses(400, 401, 403, 404, 409, 415, 422) },
      },
    },
    async (req) => ({ customer: await updateCustomer(req.ctx, { ref: req.params.id, fields: req.body }) }),
  );

  app.get(
    '/customers/:id',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'One customer by numeric id or foreign_id',
        params: CustomerParam,
        response: { 200: CustomerEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ({ customer: await getCustomer(req.ctx, { ref: req.params.id }) }),
  );

  app.get(
    '/customers/:id/export',
    {
      config: { access: staffRead, cache: 'live' },
      schema: {
        tags,
        summary: 'GDPR export: everything stored about the person (customer, orders, requests, attendees, contacts, document metadata)',
        params: CustomerParam,
        response: { 200: CustomerExport, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ({ export: await exportCustomer(req.ctx, { ref: req.params.id }) }),
  );

  app.post(
    '/customers/:id/erase',
    {
      config: { access: staffWrite, cache: 'live' },
      schema: {
        tags,
        summary: 'GDPR erasure: anonymise the person everywhere; invoices are kept as tax law requires (named in the answer)',
        params: CustomerParam,
        response: { 200: CustomerErasure, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ({ erasure: await eraseCustomer(req.ctx, { ref: req.params.id }) }),
  );

  app.get(
    '/customers',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'Customers visible to the caller, id ascending (filters foreign_id, email)',
        querystring: CustomerQuery,
        response: { 200: CustomerList, ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => listCustomers(req.ctx, req.query),
  );
};
