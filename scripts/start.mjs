// npm start: compiles the server and builds the docs where their sources changed, then runs the
// compiled server in this same process: one node start rather than three, a third of a second
// on a small machine. Production runs dist/server/main.js itself (README, "Stopping").
import { buildServer } from './build-server.mjs';

if (!(await buildServer())) process.exit(1);
const { buildDocs } = await import('../dist/scripts/docs/build.js');
try {
  await buildDocs({ ifStale: true });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
await import('../dist/server/main.js');
