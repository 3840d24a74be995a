// The realtime benchmark's baseline: a bare `ws` server on the same Node that does the least a
// realtime channel can do. The first message names the user (no token check), a position names the
// rider it goes to and is forwarded at once: no hub, no sequence numbers, no replay, no database.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const server = createServer((_, response) => response.writeHead(426).end());
const wss = new WebSocketServer({ server, path: '/realtime' });
const users = new Map<number, Set<WebSocket>>();

wss.on('connection', (socket) => {
  let user: number | undefined;
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as { type: string; token?: string; to?: number; rideId?: number; lat?: number; lon?: number };
    if (user === undefined) {
      user = Number(message.token);
      let sockets = users.get(user);
      if (!sockets) users.set(user, (sockets = new Set()));
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.send(JSON.stringify({ type: 'ready', userId: user, seq: 0 }));
      return;
    }
    const text = JSON.stringify({ type: 'ride.position', seq: 0, at: new Date().toISOString(), data: { rideId: message.rideId, lat: message.lat, lon: message.lon } });
    for (const rider of users.get(message.to!) ?? []) rider.send(text);
  });
});

server.listen(0, '127.0.0.1', () => console.log(`relay listening at http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => {
  for (const socket of wss.clients) socket.terminate();
  server.close(() => process.exit(0));
});
