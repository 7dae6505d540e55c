// Webhook endpoints (docs/api-contract.md §15, docs/webhooks.md): register, inspect deliveries,
// retry, send a test event. Receiving and verifying is `verifyWebhook` (src/webhooks.ts).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { BodyOf, List, OkBody } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
export type WebhookEndpoint = OkBody<`${A}/webhooks/{id}`, 'get'>['webhook'];
/** The created endpoint with its signing `secret`, shown this once. */
export type WebhookCreated = OkBody<`${A}/webhooks`, 'post'>;
export type WebhookDelivery = OkBody<`${A}/webhooks/{id}/deliveries`, 'get'>['deliveries'][number];

const EP = {
  list: endpoint('GET', '/webhooks'),
  create: endpoint('POST', '/webhooks'),
  get: endpoint('GET', '/webhooks/{id}'),
  update: endpoint('PATCH', '/webhooks/{id}'),
  remove: endpoint('DELETE', '/webhooks/{id}'),
  deliveries: endpoint('GET', '/webhooks/{id}/deliveries'),
  retry: endpoint('POST', '/webhooks/{id}/deliveries/{delivery_id}/retry'),
  test: endpoint('POST', '/webhooks/{id}/test'),
  notifySettings: endpoint('GET', '/accounts/{id}/notify_settings'),
  setNotifySettings: endpoint('PUT', '/accounts/{id}/notify_settings'),
};

/** An account's notification switches (GET|PUT /accounts/{id}/notify_settings). */
export interface NotifySettings {
  account_id: number;
  mail_enabled: boolean;
}

export class Webhooks {
  constructor(private readonly core: Core) {}
  list(o: ReadOptions = {}): Promise<List<WebhookEndpoint>> {
    return this.core.list<WebhookEndpoint>(EP.list, 'webhooks', o);
  }
  /** Registers an endpoint; keep the returned `secret`, it is never shown again. Never resent. */
  async create(body: BodyOf<`${A}/webhooks`, 'post'>, o: WriteOptions = {}): Promise<WebhookCreated> {
    return (await this.core.http.send(EP.create, { ...o, body })).body as WebhookCreated;
  }
  get(id: number, o: ReadOptions = {}): Promise<WebhookEndpoint> {
    return this.core.one<WebhookEndpoint>(EP.get, 'webhook', { ...o, params: { id } });
  }
  update(id: number, body: BodyOf<`${A}/webhooks/{id}`, 'patch'>, o: WriteOptions = {}): Promise<WebhookEndpoint> {
    return this.core.one<WebhookEndpoint>(EP.update, 'webhook', { ...o, params: { id }, body });
  }
  async remove(id: number, o: WriteOptions = {}): Promise<void> {
    await this.core.http.send(EP.remove, { ...o, params: { id } });
  }
  deliveries(id: number, o: ReadOptions = {}): Promise<List<WebhookDelivery>> {
    return this.core.list<WebhookDelivery>(EP.deliveries, 'deliveries', { ...o, params: { id } });
  }
  async retry(id: number, deliveryId: number, o: WriteOptions = {}): Promise<unknown> {
    return (await this.core.http.send(EP.retry, { ...o, params: { id, delivery_id: deliveryId } })).body;
  }
  async test(id: number, o: WriteOptions = {}): Promise<unknown> {
    return (await this.core.http.send(EP.test, { ...o, params: { id } })).body;
  }
  /** Whether visitors get mail for this account's orders and requests (a reseller: its own account). */
  notifySettings(accountId: number, o: ReadOptions = {}): Promise<NotifySettings> {
    return this.core.one<NotifySettings>(EP.notifySettings, 'notify_settings', { ...o, params: { id: accountId } });
  }
  /** Turns visitor mail for the account off (`mail_enabled: false`) or on again. */
  setNotifySettings(accountId: number, body: { mail_enabled: boolean }, o: WriteOptions = {}): Promise<NotifySettings> {
    return this.core.one<NotifySettings>(EP.setNotifySettings, 'notify_settings', { ...o, params: { id: accountId }, body });
  }
}
