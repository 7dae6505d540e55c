// A back-office script: create customers by our own key (foreign_id, spec 2.3) and keep them up
// to date with PUT, without a mapping table. Safe to run again: a known foreign_id with the same
// content is answered with the existing customer; with changed content it is updated by PUT.
//   ATRIUM_URL=http://127.0.0.1:8080 ATRIUM_TOKEN=atr_… npx tsx packages/client/examples/backoffice.ts
import { pathToFileURL } from 'node:url';
import { AtriumClient, UnprocessableError, type Customer, type CustomerInput } from '@atrium/client';

export type Person = CustomerInput & { foreign_id: string };

/** Creates or updates each person; at most `concurrency` calls at once (spec 8.2). */
export async function upsertCustomers(atrium: AtriumClient, people: Person[], concurrency = 4): Promise<Customer[]> {
  return atrium.batch(
    people,
    async (p) => {
      try {
        return await atrium.customers.create(p);
      } catch (e) {
        // The foreign_id exists with other content: update that customer (PUT finds it by foreign_id).
        if (e instanceof UnprocessableError && e.code === 'FOREIGN_ID_CONFLICT') return atrium.customers.update(p);
        throw e;
      }
    },
    concurrency,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const atrium = new AtriumClient({ baseUrl: process.env.ATRIUM_URL ?? 'http://127.0.0.1:8080', token: process.env.ATRIUM_TOKEN });
  const people: Person[] = [
    { foreign_id: 'crm-1001', name: 'Ada', surname: 'Lovelace', email: 'ada@example.org' },
    { foreign_id: 'crm-1002', name: 'Alan', surname: 'Turing', email: 'alan@example.org', phone: '+44 20 7946 0000' },
  ];
  for (const c of await upsertCustomers(atrium, people)) console.log(`customer ${c.id} ${c.foreign_id} ${c.email}`);
  const moved = await atrium.customers.update({ foreign_id: 'crm-1001', city: 'London' });
  console.log(`customer ${moved.id} now lives in ${moved.city}`);
}
