export * from './instance.ts';
export * from './accounts.ts';
export * from './catalog.ts';
export * from './booking.ts';
export * from './imports.ts';
export * from './requests.ts';
export * from './documents.ts';
export * from './schedules.ts';
