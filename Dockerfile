# syntax=docker/dockerfile:1
# Three stages: `build` installs everything, builds the web app and the Prisma client, and compiles
# the server (API, production entry point, migrations, seed) to JavaScript with tsc; `runtime` is
# the shop (API + web on one origin) on Node.js 24 LTS with production dependencies only, running
# that JavaScript with plain `node`; `identity` is the Firebase Auth emulator used by
# docker-compose.yml in place of a real Firebase project.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
COPY packages/rules/package.json packages/rules/
RUN npm ci --ignore-scripts
COPY . .
RUN npm rebuild esbuild \
 && node_modules/.bin/tsx scripts/generate.ts --prisma-only \
 && npm run build -w web \
 && node_modules/.bin/tsc -p tsconfig.build.json

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 WEB_DIST=/app/web/dist
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
COPY packages/rules/package.json packages/rules/
# Only the API's production dependencies; no install scripts are needed (bcrypt ships prebuilt).
RUN npm ci --omit=dev --ignore-scripts --workspace api && npm cache clean --force
# The compiled server keeps the repository's layout (api/src, scripts, seed, packages/rules/src), so
# the paths it computes from its own location (migrations, books.csv) hold as they do in a checkout.
COPY --from=build /app/dist/server/ ./
COPY --from=build /app/web/dist web/dist
COPY --from=build /app/prisma prisma
COPY --from=build /app/seed/books.csv seed/
# The shared rules package is compiled as well: its exports name the JavaScript.
RUN sed -i 's/\.ts"/.js"/g' packages/rules/package.json
USER node
EXPOSE 3000
# Readiness: the database answers and has every migration of this image.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD node -e "fetch('http://127.0.0.1:3000/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "scripts/serve.js"]

FROM node:24-bookworm-slim AS identity
RUN npm install -g firebase-tools@15 && npm cache clean --force
WORKDIR /srv
COPY docker/firebase.json firebase.json
USER node
EXPOSE 9099
CMD ["firebase", "emulators:start", "--only", "auth", "--project", "demo-bookshop"]
