import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.ts';

const NGINX = '/usr/sbin/nginx';
const SHIPPED = new URL('../../deploy/nginx.conf', import.meta.url);
const UPSTREAM_EXAMPLE = new URL('../../deploy/nginx-upstream.conf', import.meta.url);

/** Why nginx cannot run here, or undefined when it can. */
export const nginxMissing = existsSync(NGINX) ? undefined : `nginx is not installed at ${NGINX} (apt-get install nginx)`;

export interface Nginx {
  /** http://127.0.0.1:port */
  url: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx with the shipped deploy/nginx.conf, unchanged but for its listen port, in front of
 * `instances` (host:port each, written into the example upstream file in place of its servers). It
 * runs in the foreground with its own prefix, pid file, temporary paths and logs in a temporary
 * directory, so it needs no root and touches nothing of the machine's nginx.
 */
export async function startNginx(instances: string[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'ride-hailing-nginx-'));
  const port = await freePort();
  const site = readFileSync(SHIPPED, 'utf8');
  if (site.match(/^\s*listen 8080;$/gm)?.length !== 1) throw new Error('deploy/nginx.conf no longer has one "listen 8080;" line to point at a free port');
  writeFileSync(join(dir, 'site.conf'), site.replace(/^(\s*)listen 8080;$/m, `$1listen 127.0.0.1:${port};`));
  const lines = readFileSync(UPSTREAM_EXAMPLE, 'utf8').split('\n');
  const first = lines.findIndex((line) => /^\s*server \S+;$/.test(line));
  if (first < 0) throw new Error('deploy/nginx-upstream.conf lists no "server host:port;" line');
  const upstream = lines.filter((line, i) => i === first || !/^\s*server \S+;$/.test(line));
  upstream[first] = instances.map((instance) => `  server ${instance};`).join('\n');
  writeFileSync(join(dir, 'ride-hailing-upstream.conf'), upstream.join('\n'));
  for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
  const main = join(dir, 'nginx.conf');
  writeFileSync(
    main,
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} info;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${join(dir, 'access.log')};`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `  ${temp}_temp_path ${join(dir, temp)};`),
      '  include site.conf;',
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-p', `${dir}/`, '-c', main, '-e', join(dir, 'error.log')];
  const errorLog = () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const tested = spawnSync(NGINX, [...args, '-t'], { encoding: 'utf8' });
  if (tested.status !== 0) throw new Error(`nginx -t refused the configuration:\n${tested.stderr}`);
  const child: ChildProcess = spawn(NGINX, args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await fetch(`${url}/health`).then((response) => response.ok, () => false);
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start:\n${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    errorLog,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
