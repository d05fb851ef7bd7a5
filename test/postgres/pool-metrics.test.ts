// On PostgreSQL the metrics carry the connection pool's figures: open, idle, waiting, and its bound.
import { describe, expect, it } from 'vitest';
import { call, createWorkspace } from '../support/server.js';
import { useTestServer } from '../support/use-test-server.js';

const server = useTestServer({ metrics: true });

async function pool(): Promise<Record<string, number>> {
  const metrics = (await server.metrics?.registry.getMetricsAsJSON()) ?? [];
  const values = (name: string) =>
    (metrics.find((metric) => metric.name === name)?.values ?? []) as {
      labels: Record<string, string>;
      value: number;
    }[];
  return Object.fromEntries([
    ...values('db_pool_connections').map(({ labels, value }) => [labels.state, value]),
    ...values('db_pool_max_connections').map(({ value }) => ['max', value]),
  ]);
}

describe('the pool figures', () => {
  it('count the connections the requests opened, idle once answered, none waiting, and the bound', async () => {
    const workspace = await createWorkspace(server.store, server.clock.now());
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, { key: workspace.managementKey }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    const figures = await pool();
    expect(figures.total).toBeGreaterThanOrEqual(1);
    expect(figures.total).toBeLessThanOrEqual(10);
    expect(figures.idle).toBe(figures.total);
    expect(figures.waiting).toBe(0);
    expect(figures.max).toBe(10);
  });
});
