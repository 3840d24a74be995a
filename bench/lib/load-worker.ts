// Runs one autocannon measurement and prints its summary as JSON. Started by load.ts on the load core.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { FailureSamples } from './failures.ts';
import type { LoadRequest } from './load.ts';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as {
  url: string;
  connections: number;
  seconds: number;
  overallRate?: number;
  requests: LoadRequest[];
};

const failures = new FailureSamples();
// Each connection walks the list from its own starting point.
const options: autocannon.Options = {
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  overallRate: spec.overallRate,
  requests: [
    {
      setupRequest: (request, context: { next?: number }) => {
        context.next ??= Math.floor(Math.random() * spec.requests.length);
        const chosen = spec.requests[context.next++ % spec.requests.length];
        return { ...request, method: chosen.method, path: chosen.path, headers: { ...request.headers, ...chosen.headers }, body: chosen.body };
      },
      // autocannon reads every body anyway; this only looks at the failed ones.
      onResponse: (status, body) => {
        if (status < 200 || status >= 300) failures.answer(status, body);
      },
    },
  ],
};
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(options, (error: Error | null, done) => (error ? reject(error) : resolve(done)));
  instance.on('reqError', (error: Error) => failures.transport(error));
});

console.log(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    total: result.requests.total,
    // autocannon's errors already count its timeouts (adding them again counted a timed-out request twice).
    errors: result.errors,
    non2xx: result.non2xx,
    failures: failures.list(),
  }),
);
