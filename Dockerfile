# Kopi in a container: build once, run as many identical nodes as you like (README, "Run it on several
# machines"). Not built in this project's CI (there is no image registry there); keep it in step with the README.
#
#   docker build -t kopi .
#   docker run -p 3000:3000 -v kopi-data:/data kopi                 # one node, SQLite in /data
#   docker compose up                                                # PostgreSQL, S3, two nodes, nginx

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The production build, then only what running needs. The image's own Node 24 runs the server, so the
# Node that npm ci brings for machines with an old system Node is dropped.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/node-linux-* node_modules/node-darwin-* node_modules/.bin/node

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/server.js /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/scripts ./scripts
# The `kopi` command (migrate, create-admin, backup …) runs the TypeScript sources through tsx.
COPY --from=build /app/cli ./cli
COPY --from=build /app/app ./app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM lets a node finish its requests and close its database before it exits (server.js).
STOPSIGNAL SIGTERM
CMD ["node", "server.js"]
