# Multi-stage build: the official Swift image builds a release binary with the Swift
# runtime linked in; a slim Debian image runs it with only libwebsockets' runtime.
# Every RUN step here was run on a Debian 12 machine with Swift 6.3.1 (no Docker engine
# was available to run the build itself).

FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libwebsockets-dev libssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib --product collection-server \
 && install -D "$(swift build -c release --show-bin-path)/collection-server" /out/collection-server

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libwebsockets17 libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/collection-server /usr/local/bin/collection-server
COPY Public /app/Public
WORKDIR /app
EXPOSE 8080
USER nobody
CMD ["collection-server", "--host", "0.0.0.0", "--port", "8080", "--public", "/app/Public"]
