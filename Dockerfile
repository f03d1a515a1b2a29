# syntax=docker/dockerfile:1
# Four stages: `build` installs everything, builds the web app and the Prisma client, and compiles
# the server (API, production entry point, migrations, seed) to JavaScript with tsc; `modules` installs
# the API's production dependencies and keeps only what the server loads (docker/prune-modules.mjs);
# `identity` is the Firebase Auth emulator used by docker-compose.yml in place of a real Firebase
# project; `runtime` is the shop (API + web on one origin) on Node.js 24 LTS, running that JavaScript
# with plain `node`. It is the last stage, so a plain `docker build .` builds the shop.
# `npm run image:check` builds and runs them all (docs/operations.md).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
COPY packages/rules/package.json packages/rules/
RUN npm ci --ignore-scripts
COPY . .
# The source maps go: node runs without --enable-source-maps, and the web's would be served to anyone.
RUN npm rebuild esbuild \
 && node_modules/.bin/tsx scripts/generate.ts \
 && npm run build -w web \
 && node_modules/.bin/tsc -p tsconfig.build.json \
 && find dist/server web/dist -name '*.map' -delete

FROM node:24-bookworm-slim AS modules
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
COPY packages/rules/package.json packages/rules/
# Only the API's production dependencies; no install scripts are needed (bcrypt ships prebuilt). npm
# also installs @prisma/client's optional peers (the Prisma CLI, TypeScript): the prune removes them
# and everything else the server never loads. The shared rules package is compiled as well: its
# exports name the JavaScript.
COPY docker/prune-modules.mjs /tmp/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace api \
 && node /tmp/prune-modules.mjs /app api \
 && sed -i 's/\.ts"/.js"/g' packages/rules/package.json

FROM node:24-bookworm-slim AS identity
ENV NO_UPDATE_NOTIFIER=1 FIREBASE_CLI_DISABLE_UPDATE_CHECK=true
# The emulator the tests and `npm start` run: firebase-tools at the version package-lock.json holds.
COPY package-lock.json /tmp/
RUN npm install -g --no-audit --no-fund \
      "firebase-tools@$(node -p "require('/tmp/package-lock.json').packages['node_modules/firebase-tools'].version")" \
 && rm /tmp/package-lock.json && npm cache clean --force
# The emulator writes its log (firebase-debug.log) beside its config, as the user it runs as, and its
# accounts to /srv/data/accounts when it stops (SIGTERM), read again at the next start. Compose keeps
# /srv/data in a volume (which takes the folder's owner from here); the accounts are a folder inside
# it, since the export replaces its folder, and a volume's own mount point cannot be replaced.
RUN install -d -o node -g node /srv /srv/data
WORKDIR /srv
COPY docker/firebase.json firebase.json
USER node
EXPOSE 9099
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD node -e "fetch('http://127.0.0.1:9099/').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["firebase", "emulators:start", "--only", "auth", "--project", "demo-bookshop", "--import", "/srv/data/accounts", "--export-on-exit", "/srv/data/accounts"]

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 WEB_DIST=/app/web/dist
WORKDIR /app
# The workspaces' package.json files and node_modules, nothing else, from `modules`.
COPY --from=modules /app/ ./
# The compiled server keeps the repository's layout (api/src, scripts, seed, packages/rules/src), so
# the paths it computes from its own location (migrations, books.csv) hold as they do in a checkout.
COPY --from=build /app/dist/server/ ./
COPY --from=build /app/web/dist web/dist
COPY --from=build /app/prisma prisma
COPY --from=build /app/seed/books.csv seed/
USER node
EXPOSE 3000
# Liveness: the process answers. It listens only once migrated and seeded, after the replicas before it
# (a migration that waits for a lock takes about 50 s, so 120 s to start). Not readiness: an
# orchestrator that replaces unhealthy containers (Swarm, ECS) would replace every replica in a
# database blip, and the new ones could not migrate; a running one answers 503 with Retry-After until
# the database is back. compose's app waits on readiness with a health check of its own.
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "scripts/serve.js"]
