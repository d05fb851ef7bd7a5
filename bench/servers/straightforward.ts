// Baseline 4: the same three operations written straightforwardly, as a team would on the same
// stack and database without this project's care: Express 5, helmet, a pino request log, the
// released express-openapi-validator (requests validated, responses not), express-rate-limit per
// key, and the statements such code would run on the schema the seed creates (seed.ts): prepared
// better-sqlite3 statements on SQLite, a `pg.Pool` with named queries on PostgreSQL
// (straightforward-database.ts), answering the same JSON bodies from the same seeded database. The server is to be compared with what such
// code costs, not only with empty apps.
// It leaves out what the server adds: the failed-authentication throttle, the request-shape checks
// (content type, body sizes, storable text, the order of the checks), the per-type config rules
// (any key of DestinationConfigUpdate is merged into any type's config), the masked-secret handling
// on the way in (a mask sent back is stored as it is), the no-op PATCH (every PATCH writes, bumping
// the revision and `updated_at`), and the page's size budget (a page is `limit` rows, whatever their
// size). Its error bodies use the envelope, without the server's field list on a 400.
// pino-http is not a dependency of the project: a few lines below log one line per request with pino.
// Usage: straightforward.ts <sqlite:file | postgres://…>, with BENCH_SECRETS_KEY (hex, as given to seed.ts) set.
import './cpu-probe.js';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator-released';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import pino from 'pino';
import type { components } from '../../generated/api.js';
import { presetPageEtag } from '../../server/domain/etag.js';
import { PAGE_CHARACTER_BUDGET } from '../../server/domain/preset-versions.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { loadSpec, specPath } from '../../server/spec.js';
import { openStraightforwardDatabase } from './straightforward-database.js';
import { type Config, maskedConfig } from './straightforward-masking.js';

type ApiKey = components['schemas']['ApiKey'];
type Destination = components['schemas']['ObservabilityDestination'];
type DestinationUpdate = components['schemas']['ObservabilityDestinationUpdate'];
type PresetVersion = components['schemas']['PresetVersion'];

const [databaseUrl = ''] = process.argv.slice(2);
const db = openStraightforwardDatabase(databaseUrl);
const secrets = createSecretBox(Buffer.from(process.env.BENCH_SECRETS_KEY ?? '', 'hex'));
const contractVersion = loadSpec().info.version;
const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true }));

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface Caller {
  keyId: string;
  workspaceId: string;
  kind: string;
}

function callerOf(res: Response): Caller {
  return res.locals.key as Caller;
}

function requireKey(...kinds: string[]) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = /^bearer +(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    if (!token) throw new ApiError(401, 'Missing API key: send Authorization: Bearer <API key>.');
    const key = await db.keyByHash(createHash('sha256').update(token).digest('hex'));
    if (!key || key.disabled || (key.expires_at !== null && key.expires_at <= new Date().toISOString()))
      throw new ApiError(401, 'Invalid API key: it is unknown, disabled or expired.');
    if (!kinds.includes(key.kind)) throw new ApiError(403, `This operation needs a ${kinds.join(' or ')} key.`);
    res.locals.key = { keyId: key.id, workspaceId: key.workspace_id, kind: key.kind } satisfies Caller;
    next();
  };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

async function getKey(req: Request, res: Response) {
  const { workspaceId } = callerOf(res);
  const key = await db.keyInWorkspace(String(req.params.hash), workspaceId);
  if (!key) throw new ApiError(404, 'No API key with this hash in your workspace.');
  const now = new Date();
  const week = day(
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7))),
  );
  const month = day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  const usage =
    (await db.usage({ keyId: String(key.id), from: week < month ? week : month, day: day(now), week, month })) ?? {};
  const data = {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: Boolean(key.disabled),
    limit: key.spend_limit,
    limit_reset: key.limit_reset,
    include_byok_in_limit: Boolean(key.include_byok_in_limit),
    usage: key.usage_total,
    usage_daily: usage.usage_daily,
    usage_weekly: usage.usage_weekly,
    usage_monthly: usage.usage_monthly,
    byok_usage: key.byok_usage_total,
    byok_usage_daily: usage.byok_usage_daily,
    byok_usage_weekly: usage.byok_usage_weekly,
    byok_usage_monthly: usage.byok_usage_monthly,
    created_at: key.created_at,
    updated_at: key.updated_at,
    expires_at: key.expires_at,
    creator_user_id: key.creator_user_id,
    external_user: key.external_user,
    workspace_id: key.workspace_id,
  } as Omit<ApiKey, 'limit_remaining'>;
  const windowUsage = { daily: data.usage_daily, weekly: data.usage_weekly, monthly: data.usage_monthly };
  const windowByok = { daily: data.byok_usage_daily, weekly: data.byok_usage_weekly, monthly: data.byok_usage_monthly };
  const used = data.limit_reset ? windowUsage[data.limit_reset] : data.usage;
  const byok = data.limit_reset ? windowByok[data.limit_reset] : data.byok_usage;
  const limitRemaining =
    data.limit === null ? null : Math.max(0, data.limit - (data.include_byok_in_limit ? used + byok : used));
  res.json({ data: { ...data, limit_remaining: limitRemaining } satisfies ApiKey });
}

const REGION_ORDER: Destination['regions'] = ['global', 'europe', 'us'];

const updateDestination = (workspaceId: string, id: string, ifMatch: string | undefined, changes: DestinationUpdate) =>
  db.updateDestination(id, workspaceId, (row) => {
    if (!row) throw new ApiError(404, 'No observability destination with this id in your workspace.');
    if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== `"r${row.revision}"`)
      throw new ApiError(412, 'The destination has changed since it was read (If-Match does not match its ETag).', {
        ETag: `"r${row.revision}"`,
      });
    const current = {
      name: row.name as string | null,
      enabled: Boolean(row.enabled),
      privacy_mode: Boolean(row.privacy_mode),
      sampling_rate: row.sampling_rate as number,
      api_key_hashes: row.api_key_hashes === null ? null : (JSON.parse(String(row.api_key_hashes)) as string[]),
      filter_rules:
        row.filter_rules === null ? null : (JSON.parse(String(row.filter_rules)) as Destination['filter_rules']),
      broadcast_generation_cost: Boolean(row.broadcast_generation_cost),
      broadcast_generation_identity: Boolean(row.broadcast_generation_identity),
      broadcast_generation_request_context: Boolean(row.broadcast_generation_request_context),
      regions: JSON.parse(String(row.regions)) as Destination['regions'],
    };
    const { config: configChanges, regions, ...fieldChanges } = changes;
    const next = { ...current };
    for (const [field, value] of Object.entries(fieldChanges))
      if (value !== undefined) Object.assign(next, { [field]: value });
    // `eu` is `europe`; the list is kept in the contract's order.
    if (regions !== undefined)
      next.regions = REGION_ORDER.filter((region) =>
        regions.some((name) => (name === 'eu' ? 'europe' : name) === region),
      );
    const config: Config = { ...(JSON.parse(secrets.open(String(row.config_sealed))) as Config), ...configChanges };
    const revision = Number(row.revision) + 1;
    const updatedAt = new Date().toISOString();
    const write = {
      id,
      name: next.name,
      enabled: next.enabled ? 1 : 0,
      privacy_mode: next.privacy_mode ? 1 : 0,
      sampling_rate: next.sampling_rate,
      api_key_hashes: next.api_key_hashes === null ? null : JSON.stringify(next.api_key_hashes),
      filter_rules: next.filter_rules === null ? null : JSON.stringify(next.filter_rules),
      broadcast_generation_cost: next.broadcast_generation_cost ? 1 : 0,
      broadcast_generation_identity: next.broadcast_generation_identity ? 1 : 0,
      broadcast_generation_request_context: next.broadcast_generation_request_context ? 1 : 0,
      regions: JSON.stringify(next.regions),
      config_sealed: secrets.seal(JSON.stringify(config)),
      revision,
      updated_at: updatedAt,
    };
    const destination: Destination = {
      id,
      workspace_id: workspaceId,
      name: next.name,
      type: row.type as Destination['type'],
      enabled: next.enabled,
      privacy_mode: next.privacy_mode,
      sampling_rate: next.sampling_rate,
      api_key_hashes: next.api_key_hashes,
      filter_rules: next.filter_rules,
      broadcast_generation_cost: next.broadcast_generation_cost,
      broadcast_generation_identity: next.broadcast_generation_identity,
      broadcast_generation_request_context: next.broadcast_generation_request_context,
      regions: next.regions,
      config: maskedConfig(config) as Destination['config'],
      created_at: String(row.created_at),
      updated_at: updatedAt,
    };
    return { write, result: { destination, etag: `"r${revision}"` } };
  });

async function patchDestination(req: Request, res: Response) {
  const { workspaceId } = callerOf(res);
  const ifMatch = req.get('if-match');
  const { destination, etag } = await updateDestination(
    workspaceId,
    String(req.params.id),
    ifMatch,
    req.body as DestinationUpdate,
  );
  res.set('ETag', etag).json({ data: destination });
}

async function listVersions(req: Request, res: Response) {
  const { workspaceId } = callerOf(res);
  const presetId = await db.presetId(workspaceId, String(req.params.slug));
  if (presetId === undefined) throw new ApiError(404, 'No preset with this slug in your workspace.');
  const limit = Number(req.query.limit ?? 50);
  const offset = Number(req.query.offset ?? 0) || 0;
  const data = (await db.versions(presetId, limit, offset)).map(
    (row): PresetVersion => ({
      id: String(row.id),
      preset_id: String(row.preset_id),
      version: Number(row.version),
      config: JSON.parse(String(row.config)) as PresetVersion['config'],
      system_prompt: row.system_prompt as string | null,
      creator_id: String(row.creator_id),
      created_at: String(row.created_at),
      updated_at: String(row.updated_at),
    }),
  );
  const total = await db.versionCount(presetId);
  // The page's tag as the server makes it, so that both send the same answer (it answers no If-None-Match).
  const etag = presetPageEtag({
    contractVersion,
    presetId,
    versionCount: total,
    offset,
    limit,
    budget: PAGE_CHARACTER_BUDGET,
  });
  res.set('ETag', etag).json({ data, total_count: total });
}

const app = express();
app.set('query parser', 'extended');
app.set('etag', false);
app.use((req, res, next) => {
  const started = performance.now();
  res.on('finish', () =>
    logger.info(
      {
        req: { method: req.method, url: req.originalUrl },
        res: { statusCode: res.statusCode },
        responseTime: performance.now() - started,
      },
      'request completed',
    ),
  );
  next();
});
app.use(helmet());
app.use(express.json({ limit: '100kb' }));
app.use(OpenApiValidator.middleware({ apiSpec: specPath, validateRequests: true, validateResponses: false }));
const perKey = rateLimit({
  windowMs: 60_000,
  limit: 1_000_000_000,
  standardHeaders: 'draft-8',
  legacyHeaders: false,
  keyGenerator: (_req, res) => callerOf(res).keyId,
});
app.get('/api/v1/keys/:hash', requireKey('management'), perKey, getKey);
app.patch('/api/v1/observability/destinations/:id', requireKey('management'), perKey, patchDestination);
app.get('/api/v1/presets/:slug/versions', requireKey('management', 'standard'), perKey, listVersions);
app.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
  const status = err instanceof ApiError ? err.status : (err.status ?? 500);
  if (status >= 500) logger.error(err);
  if (err instanceof ApiError) res.set(err.headers);
  res.status(status).json({ error: { code: status, message: err.message, metadata: null } });
});

const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.close();
  void db.close().finally(() => process.exit(0));
});
