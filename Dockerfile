# Multi-stage build: the official Swift image builds a release binary with the Swift
# runtime linked in; a slim Debian image runs it with only libwebsockets' runtime (and
# its libev plugin: the server waits on libev's epoll loop).
# Every RUN step here was run on a Debian 12 machine with Swift 6.3.1 (no Docker engine
# was available to run the build itself).

FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libwebsockets-dev libwebsockets-evlib-ev libev-dev libsqlite3-dev libssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Public ./Public
COPY Examples ./Examples
# The client's files are the library's resources: a bundle folder next to the binary.
RUN swift build -c release --static-swift-stdlib --product collection-server \
 && bin="$(swift build -c release --show-bin-path)" \
 && install -D "$bin/collection-server" /out/collection-server \
 && cp -R "$bin"/*_CollectionClient.resources /out/

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libwebsockets17 libwebsockets-evlib-ev libev4 libsqlite3-0 libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /usr/local/bin/
COPY Examples/Public /app/Public
# The collections' database lives in a volume the server can write.
RUN mkdir -p /data && chown nobody /data
VOLUME /data
WORKDIR /app
EXPOSE 8080
USER nobody
CMD ["collection-server", "--host", "0.0.0.0", "--port", "8080", "--public", "/app/Public", "--data", "/data"]
