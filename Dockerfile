# syntax=docker/dockerfile:1

# ---- build: compile TypeScript and the embedded-database template ----------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
# @scarf/scarf (a dependency of a dependency) phones home from its install script.
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# `nest build` into dist/, then dist/embedded-template.tar.gz (a migrated PGlite database).
RUN npm run build

# ---- runtime: production dependencies and dist/ only -----------------------------------
FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist

ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data

# The embedded database (DATA_DIR/postgres) and blobs (DATA_DIR/blobs) live here. Created
# before VOLUME so that a new named volume inherits the `node` owner.
RUN mkdir -p /data && chown node:node /data
VOLUME /data

USER node
EXPOSE 3000

# No curl in the slim image: GET /health with Node's fetch (200 once the database answers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Not `npm start`: its `prestart` hook would rebuild. SIGTERM is handled by the app
# (Nest shutdown hooks), so node can run as PID 1.
CMD ["node", "dist/src/main.js"]
