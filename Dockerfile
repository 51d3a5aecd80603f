# signalwatch container image: a release build in the Rust image, run from a slim Debian image
# as an unprivileged user. SQLite by default, on the /data volume; set SIGNALWATCH_DATABASE_URL
# to a postgres:// URL for the scale-out layout (docker-compose.yml).

FROM rust:1.95-bookworm AS build
WORKDIR /src
# Dependencies first, so that a change to the sources alone reuses their layer.
COPY Cargo.toml Cargo.lock ./
# The workspace's other crate (SQLite's allocator), which the service's build needs whole.
COPY crates ./crates
RUN mkdir -p src bench \
    && echo 'fn main() {}' > src/main.rs \
    && echo '' > src/lib.rs \
    && echo 'fn main() {}' > bench/main.rs \
    && cargo build --release --locked --bin signalwatch \
    && rm -rf src bench
COPY . .
# The real sources are newer than the placeholder build; make sure cargo sees it.
RUN touch src/main.rs src/lib.rs src/store/mod.rs \
    && cargo build --release --locked --bin signalwatch \
    && cp target/release/signalwatch /usr/local/bin/signalwatch

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin signalwatch \
    && mkdir -p /data \
    && chown signalwatch:signalwatch /data
COPY --from=build /usr/local/bin/signalwatch /usr/local/bin/signalwatch
USER signalwatch
WORKDIR /data
VOLUME ["/data"]
ENV SIGNALWATCH_DATABASE_URL=sqlite:///data/signalwatch.db \
    SIGNALWATCH_LISTEN=0.0.0.0:8080 \
    SIGNALWATCH_MAIL_DIR=/data/mail \
    SIGNALWATCH_LOG_FORMAT=json
EXPOSE 8080
ENTRYPOINT ["signalwatch"]
CMD ["serve"]
