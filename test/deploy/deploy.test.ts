import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// What deploy/ ships for Prometheus and docker compose, checked as an operator's tools would.
const root = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const promtoolMissing = spawnSync('promtool', ['--version']).error ? 'promtool is not installed (apt-get install prometheus)' : undefined;

function promtool(...args: string[]): string {
  const run = spawnSync('promtool', args, { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `promtool ${args.join(' ')}:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

describe('the Prometheus configuration and alert rules', { skip: promtoolMissing }, () => {
  test('promtool accepts the configuration, with the rules it loads, and the rules themselves', () => {
    // As in the compose stack, but with the token file (a compose secret there) made here.
    const dir = mkdtempSync(join(tmpdir(), 'ride-hailing-prometheus-'));
    try {
      writeFileSync(join(dir, 'metrics_token'), 'a-metrics-token-of-some-length');
      const config = read('deploy/prometheus.yml');
      assert.ok(config.includes('/run/secrets/metrics_token'));
      writeFileSync(join(dir, 'prometheus.yml'), config.replace('/run/secrets/metrics_token', join(dir, 'metrics_token')));
      writeFileSync(join(dir, 'alerts.yml'), read('deploy/alerts.yml'));
      assert.match(promtool('check', 'config', join(dir, 'prometheus.yml')), /SUCCESS/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.match(promtool('check', 'rules', 'deploy/alerts.yml'), /SUCCESS: 7 rules found/);
  });

  test('every alert fires on the series that should page and stays quiet on healthy ones (promtool test rules)', () => {
    assert.match(promtool('test', 'rules', 'test/deploy/alerts.test.yml'), /SUCCESS/);
  });
});

describe('the metrics the alert rules use', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('are all served by GET /metrics', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const used = new Set([...read('deploy/alerts.yml').matchAll(/\bride_hailing_\w+/g)].map(([name]) => name.replace(/_(count|bucket|sum)$/, '')));
    assert.ok(used.size >= 6);
    for (const name of used) assert.match(served, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is used by an alert but not served`);
  });
});

describe('docker-compose.yml', () => {
  const compose = read('docker-compose.yml');

  test('mounts files that exist, the proxy’s where deploy/nginx.conf includes them', () => {
    for (const [path] of compose.matchAll(/\.\/deploy\/[\w./-]+/g)) assert.ok(existsSync(join(root, path)), `${path} is mounted but missing`);
    assert.match(read('deploy/nginx.conf'), /^include ride-hailing-upstream\.conf;$/m);
    assert.match(compose, /\.\/deploy\/compose\/nginx-upstream\.conf:\/etc\/nginx\/ride-hailing-upstream\.conf:ro/);
    assert.match(compose, /\.\/deploy\/nginx\.conf:\/etc\/nginx\/conf\.d\/default\.conf:ro/);
  });

  test('gives the API and Prometheus the same metrics token', () => {
    assert.match(compose, /METRICS_TOKEN: \$\{METRICS_TOKEN:\?/);
    assert.match(compose, /metrics_token:\n\s+environment: METRICS_TOKEN/);
  });
});
