// Prism (an implementation of OpenAPI this project did not write), as a child process on a free
// loopback port: `mock` serves the spec's examples, `proxy` validates traffic to a real server.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { projectRoot } from './process.js';

export interface Prism {
  baseUrl: string;
  /** Everything Prism has printed so far. */
  output(): string;
  stop(): void;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPrism(args: string[]): Promise<Prism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['node_modules/@stoplight/prism-cli/dist/index.js', ...args, '--host', '127.0.0.1', '--port', String(port)],
    {
      cwd: projectRoot,
      env: { ...process.env, SCARF_ANALYTICS: 'false' },
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`Prism exited with ${code}: ${output}`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, output: () => output, stop: () => child.kill('SIGTERM') };
}
