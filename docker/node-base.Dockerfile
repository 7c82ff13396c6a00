# A stand-in for node:24-bookworm-slim where no image registry is reachable: Debian bookworm
# (minbase, imported from debootstrap) plus Node's binary and npm, both from the npm registry, and
# the same `node` user (uid 1000) the official image has. Built by scripts/container-smoke.sh.
# The building machine's CA bundle goes in too, for Node only (NODE_EXTRA_CA_CERTS): where the
# way out to the npm registry inspects TLS, its certificate authority is in that bundle.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && groupadd --gid 1000 node \
  && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
  && node --version && npm --version
CMD ["node"]
