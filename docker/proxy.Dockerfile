# A stand-in for the official nginx image where no image registry is reachable: Debian's nginx,
# configured from /etc/nginx/conf.d like the official image, logging to the container's output.
# Built by scripts/container-smoke.sh.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update -qq \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null \
  && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* \
  && ln -sf /dev/stdout /var/log/nginx/access.log \
  && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80 443
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
