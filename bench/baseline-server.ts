// The framework's ceiling: bare Fastify on the same Node, one route that parses the same JSON
// body a location update sends and answers a small JSON object.
import Fastify from 'fastify';

const app = Fastify();
app.post('/echo', async (request) => {
  const { lat, lon } = request.body as { lat: number; lon: number };
  return { ok: true, lat, lon };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`baseline listening at ${address}`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
