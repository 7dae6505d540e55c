// A complete Atrium webhook receiver (docs/guides/webhooks.md), runnable as it is:
//
//   npm install standardwebhooks
//   WEBHOOK_SECRET=whsec_… PORT=3000 node webhook-receiver.mjs
//
// It verifies every request with the Standard Webhooks library (signature, and a timestamp
// within five minutes: a recorded request replayed later is refused), answers at once, skips
// events it has already seen (the same webhook-id can arrive more than once), and only then
// does its work. Put it behind your HTTPS server or proxy: Atrium delivers to https:// URLs only.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error('set WEBHOOK_SECRET to the secret shown when the endpoint was created (whsec_…)');
  process.exit(1);
}
const webhook = new Webhook(secret);
// Use your database in production (a unique key on the event id); a Set is lost on restart.
const seen = new Set();
const MAX_BODY = 1024 * 1024;

function handle(event) {
  // Your work: look the order up in your system, send your own mail, update a CRM, …
  const subject = event.data.order ?? event.data.request ?? event.data.document ?? event.data;
  console.log(`${event.type} ${event.id} ${subject?.id !== undefined ? `#${subject.id} ${subject.status ?? ''}` : ''}`.trim());
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size > MAX_BODY) req.destroy();
    else chunks.push(c);
  });
  req.on('end', () => {
    // The raw body, exactly as received: re-serialised JSON would not match the signature.
    const body = Buffer.concat(chunks).toString('utf8');
    let event;
    try {
      event = webhook.verify(body, req.headers);
    } catch (err) {
      console.log(`refused: ${err.message}`);
      return void res.writeHead(400).end('invalid signature');
    }
    // Answer first (Atrium waits 10 seconds at most), then work.
    res.writeHead(204).end();
    if (seen.has(event.id)) return void console.log(`duplicate ${event.id} skipped`);
    seen.add(event.id);
    setImmediate(() => handle(event));
  });
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  console.log(`listening on http://${address}:${port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
