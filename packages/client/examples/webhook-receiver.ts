// A minimal webhook receiver for Atrium (docs/webhooks.md): verifies every request with
// verifyWebhook, answers 2xx at once, deduplicates by event id, and handles the work after.
//   ATRIUM_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx packages/client/examples/webhook-receiver.ts
// Behind TLS in production (Atrium delivers to https URLs only).
import http from 'node:http';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../src/index.ts';

const secret = process.env.ATRIUM_WEBHOOK_SECRET;
if (!secret) throw new Error('set ATRIUM_WEBHOOK_SECRET to the whsec_… value shown when the webhook was created');
const MAX_BODY = 1024 * 1024;
/** Event ids already handled; a real receiver keeps these in its database. */
const seen = new Set<string>();

function handle(event: WebhookEvent): void {
  switch (event.type) {
    case 'order.finalized':
      console.log(`order ${event.data.order.id} finalized: ${event.data.order.total_price_cents} cents`);
      break;
    case 'order.cancelled':
      console.log(`order ${event.data.order.id}: items ${event.data.cancelled_item_ids.join(', ')} cancelled`);
      break;
    default:
      console.log(`${event.type} (${event.id})`);
  }
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY) req.destroy();
    else chunks.push(c);
  });
  req.on('end', async () => {
    const body = Buffer.concat(chunks).toString('utf8'); // the raw body: never re-serialised JSON
    try {
      const event = await verifyWebhook(secret, req.headers as Record<string, string>, body);
      res.writeHead(204).end(); // acknowledge first: Atrium waits at most 10 s
      if (seen.has(event.id)) return; // delivered again (at least once): already handled
      seen.add(event.id);
      handle(event);
    } catch (err) {
      if (err instanceof WebhookVerificationError) return void res.writeHead(400).end(err.message);
      res.writeHead(500).end();
    }
  });
});
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`listening on ${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? 3000}`);
});
