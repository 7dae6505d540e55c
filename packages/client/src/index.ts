// @atrium/client: a TypeScript client for the Atrium API (go~mus API v4) that follows the
// specification's client rules: tolerant parsing (1.1–1.2, 9.2), master-data caching (1.3),
// retries and safe POSTs (7.1, 7.4, 8), failed-call logging without tokens (7.5), token hygiene (5.7).
export { AtriumClient, type AtriumClientOptions } from './client.ts';
export { MemoryStore, type CacheEntry, type CacheStore } from './cache.ts';
export type { ReadOptions } from './core.ts';
export * from './errors.ts';
export { consoleLogger, silentLogger, maskPath, type FailedCall, type Logger } from './logger.ts';
export { registeredOperations } from './endpoints.ts';
export type * from './types.ts';
export * from './webhooks.ts';
export type { paths as OpenApiPaths } from './generated/openapi.ts';
export type { Closure, ClosureCreated, MuseumSchedule, CapacitiesResult } from './resources/schedules.ts';
export type { Scan, ScanInput, ScanPeopleInput, EntryConfig, Manifest, Occupancy } from './resources/entry.ts';
export type { WebhookEndpoint, WebhookCreated, WebhookDelivery } from './resources/webhookEndpoints.ts';
export type { Checkout, OrderPayments, Payment, Refund } from './resources/payments.ts';
export type { GiftCard, GiftCardBalance, GiftCardWithLedger, IssuedGiftCard } from './resources/giftCards.ts';
export type { CodeDiscounts, CodeUsage, PromoCode, Shop } from './resources/promoCodes.ts';
export type { IssuedVoucher, Voucher } from './resources/vouchers.ts';
