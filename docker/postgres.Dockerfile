# A stand-in for the official postgres image where no image registry is reachable: Debian's
# PostgreSQL with the parts of the official entrypoint the stack uses (POSTGRES_PASSWORD,
# POSTGRES_USER, POSTGRES_DB, PGDATA=/var/lib/postgresql/data). Built by scripts/container-smoke.sh.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update -qq \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
  && rm -rf /var/lib/apt/lists/* /var/lib/postgresql/15 /etc/postgresql \
  && install -d -o postgres -g postgres -m 700 /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
