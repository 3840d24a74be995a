# syntax=docker/dockerfile:1
# Production image: Node 24 runs the TypeScript sources directly; only the web apps are built (stage `web`).

FROM node:24-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# The web apps (web/dist) need the dev dependencies (Vite, Preact, Leaflet) to build; only the
# build reaches the runtime image. Scripts stay off: the image's own Node 24 runs the build, so the
# `node` package need not fetch a second one (and `prepare` would build before the sources are here).
FROM node:24-bookworm-slim AS web
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY web ./web
RUN node web/build.ts

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY --from=web /app/web/dist ./web/dist
# The embedded database and its generated secret live in /app/data; mount a volume there.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A fixed 32 MB young generation: steady memory, no resizing under load (see README).
CMD ["node", "--min-semi-space-size=32", "--max-semi-space-size=32", "src/server.ts"]
