// node location-cost-client.ts <port> <count> <requests.json>: sends exactly <count> requests, 50 in
// flight on kept-alive connections, as autocannon does; for bench/location-cost.ts.
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, countText, file] = process.argv.slice(2);
const count = Number(countText);
const requests = JSON.parse(readFileSync(file, 'utf8')) as Array<{ path: string; token: string; body: string }>;
const agent = new Agent({ keepAlive: true, maxSockets: 50 });
let sent = 0;
let answered = 0;
let failed = 0;

await new Promise<void>((resolve) => {
  const settle = () => {
    answered++;
    if (answered === count) resolve();
    else next();
  };
  const next = () => {
    if (sent >= count) return;
    const { path, token, body } = requests[sent++ % requests.length];
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    request({ host: '127.0.0.1', port, method: 'POST', path, agent, headers }, (response) => {
      if (response.statusCode !== 200) failed++;
      response.resume();
      response.on('end', settle);
    })
      .on('error', () => {
        failed++;
        settle();
      })
      .end(body);
  };
  for (let i = 0; i < 50; i++) next();
});
agent.destroy();
if (failed > 0) {
  console.error(`${failed} of ${count} updates failed`);
  process.exit(1);
}
