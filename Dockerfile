# syntax=docker/dockerfile:1
# Three stages: `build` installs everything and builds the web app and the Prisma client; `runtime`
# is the shop (API + web on one origin) with production dependencies only; `identity` is the
# Firebase Auth emulator used by docker-compose.yml in place of a real Firebase project.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
RUN npm ci --ignore-scripts
COPY . .
RUN npm rebuild esbuild && node_modules/.bin/tsx scripts/generate.ts --prisma-only && npm run build -w web

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 WEB_DIST=/app/web/dist
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
# Only the API's production dependencies; no install scripts are needed (bcrypt ships prebuilt).
RUN npm ci --omit=dev --ignore-scripts --workspace api && npm cache clean --force
COPY --from=build /app/api/src api/src
COPY --from=build /app/web/dist web/dist
COPY --from=build /app/prisma prisma
COPY --from=build /app/seed seed
COPY --from=build /app/scripts/serve.ts /app/scripts/migrate.ts scripts/
COPY --from=build /app/scripts/lib scripts/lib
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node_modules/.bin/tsx", "scripts/serve.ts"]

FROM node:20-bookworm-slim AS identity
RUN npm install -g firebase-tools@15 && npm cache clean --force
WORKDIR /srv
COPY docker/firebase.json firebase.json
USER node
EXPOSE 9099
CMD ["firebase", "emulators:start", "--only", "auth", "--project", "demo-bookshop"]
