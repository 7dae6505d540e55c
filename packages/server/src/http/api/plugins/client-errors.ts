// Answers to requests that fail in Node's HTTP parser or time out before Fastify sees them
// (Fastify's `clientErrorHandler`): a malformed request (400), a request line or headers over
// the size limit (431), headers or a whole request not received within the timeouts of app.ts
// (408). Fastify's default writes its own body without our headers; these use the documented
// error shape (docs/errors.md) and the security headers of every API answer, then close the
// connection (its state is unknown after a parse error).
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../../../config.ts';
import type { ErrorCode } from '../../../domain/errors.ts';
import { STATUS } from '../../status.ts';
import { apiHeaders } from './security.ts';

function classify(err: NodeJS.ErrnoException): [ErrorCode, string] {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['REQUEST_TIMEOUT', 'the request was not received in time'];
    case 'HPE_HEADER_OVERFLOW':
      return ['HEADERS_TOO_LARGE', 'the request line or headers are too large'];
    default:
      return ['BAD_REQUEST', 'the request is malformed'];
  }
}

export function clientErrors(config: Pick<Config, 'hsts'>) {
  const head = Object.entries(apiHeaders(config))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return function onClientError(err: NodeJS.ErrnoException, socket: Socket) {
    // A reset or an already closed socket: nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // An answer already started on this socket (a keep-alive response being written) cannot be
    // followed by another; Node's own handler makes the same check.
    const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (socket.writable && !busy) {
      const [code, message] = classify(err);
      const status = STATUS[code];
      const id = randomUUID();
      const body = JSON.stringify({ error: message, code, request_id: id });
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\n${head}connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
