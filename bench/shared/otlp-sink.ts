// The traced rung's collector: takes each OTLP/HTTP export, reads it whole and answers 200, as a
// collector does, and counts them (a rung that exported nothing measured no export).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startOtlpSink(): Promise<{ url: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    async close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
