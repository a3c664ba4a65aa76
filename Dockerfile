# syntax=docker/dockerfile:1

# The database the image is for: `embedded` (the default: PGlite in DATA_DIR; the image ships
# a migrated database that a first start copies) or `postgresql` (DATABASE_URL; nothing of
# the embedded database's template is shipped). docker-compose.yml builds `postgresql`.
ARG DATABASE=embedded

# ---- build: compile TypeScript and the embedded-database template ----------------------
FROM node:20-bookworm-slim AS build
ARG DATABASE
WORKDIR /app
# @scarf/scarf (a dependency of a dependency) phones home from its install script.
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# Compiles into dist/ and builds the embedded database's template: dist/embedded-template (the
# folder a first start on disk copies) and dist/embedded-template.tar.gz (for DATA_DIR=memory,
# which the image does not use). Keeps only what DATABASE needs.
RUN npm run build && \
    rm -f dist/embedded-template.tar.gz && \
    if [ "$DATABASE" = postgresql ]; then rm -rf dist/embedded-template dist/embedded-template.json; \
    elif [ "$DATABASE" != embedded ]; then echo "DATABASE must be embedded or postgresql" >&2; exit 1; fi

# ---- runtime: production dependencies and dist/ only -----------------------------------
FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist

# NODE_ENV=production is for Express and the libraries under it; Bindery's own behaviour
# depends only on its settings (.env.example).
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data

# The embedded database (DATA_DIR/postgres) and blobs (DATA_DIR/blobs) live here. Created
# before VOLUME so that a new named volume inherits the `node` owner.
RUN mkdir -p /data && chown node:node /data
VOLUME /data

USER node
EXPOSE 3000

# Liveness: GET /health answers 200 while the process runs, database or not (GET /health/ready
# is readiness). No curl in the slim image: Node's fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Not `npm start`: its `prestart` hook would rebuild. SIGTERM is handled by the app
# (Nest shutdown hooks), so node can run as PID 1.
CMD ["node", "dist/src/main.js"]
