# Herald's container image: Next.js's standalone output (only the files the server needs) run
# by Herald's own server entry (the API on its fast path, Next.js for the rest; Next does not
# trace a custom server, so its two files are copied in), as an unprivileged user, with a health check on /api/health. The `migrate` target is
# the full build, for the one-off `npm run db:deploy` of a release (docs/deploy.md).
#   docker build -t herald .                    # the app
#   docker build --target migrate -t herald-migrate .

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY . .
RUN node prisma/scripts/generate.mjs && HERALD_STANDALONE=1 node node_modules/next/dist/bin/next build

# The release step: applies pending migrations once, before the new version takes traffic.
FROM build AS migrate
CMD ["npm", "run", "db:deploy"]

FROM node:20-bookworm-slim AS app
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
RUN groupadd --system herald && useradd --system --gid herald --home /app herald \
  && mkdir -p /data && chown herald:herald /data
COPY --from=build --chown=herald:herald /app/.next/standalone ./
COPY --from=build --chown=herald:herald /app/.next/static ./.next/static
COPY --from=build --chown=herald:herald /app/public ./public
COPY --from=build --chown=herald:herald /app/server/runtime/serve.mjs /app/server/runtime/http-server.mjs ./server/runtime/
USER herald
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--max-http-header-size=16384", "server/runtime/serve.mjs", "--max-header-size=16384"]
