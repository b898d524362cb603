#!/usr/bin/env bash
# Regenerates the Swift code of Sources/PubSubAPI from Sources/PubSubAPI/pubsub_api.proto, by hand,
# when the .proto or the pinned generator versions change (the generated files are committed: a
# build plugin would build protoc and the plugins in every CI run).
#
#   scripts/generate-pubsub.sh [WORK_DIR]
#
# Needs python3 with grpcio-tools (it ships protoc: `python3 -m grpc_tools.protoc`) and git. Builds
# protoc-gen-swift (swift-protobuf 1.39.0) and protoc-gen-grpc-swift-2 (grpc-swift-protobuf 2.4.1),
# the versions Package.swift resolves, from the package copies in /opt/swift-packages when present
# (else from GitHub) in WORK_DIR (default /tmp/syncrun-pubsub-generator); nothing of it is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-/tmp/syncrun-pubsub-generator}"
protobuf_version=1.39.0
grpc_protobuf_version=2.4.1

source_of() {
    local local_copy="/opt/swift-packages/$1.git"
    if [[ -d "$local_copy" ]]; then echo "$local_copy"; else echo "https://github.com/$1.git"; fi
}

mkdir -p "$work"
if [[ ! -d "$work/swift-protobuf" ]]; then
    git clone -q "$(source_of apple/swift-protobuf)" "$work/swift-protobuf"
fi
if [[ ! -d "$work/grpc-swift-protobuf" ]]; then
    git clone -q "$(source_of grpc/grpc-swift-protobuf)" "$work/grpc-swift-protobuf"
fi
git -C "$work/swift-protobuf" checkout -q "$protobuf_version"
git -C "$work/grpc-swift-protobuf" checkout -q "$grpc_protobuf_version"
echo "==> building protoc-gen-swift $protobuf_version and protoc-gen-grpc-swift-2 $grpc_protobuf_version"
(cd "$work/swift-protobuf" && swift build --product protoc-gen-swift)
(cd "$work/grpc-swift-protobuf" && swift build --product protoc-gen-grpc-swift-2)
swift_plugin="$(cd "$work/swift-protobuf" && swift build --show-bin-path)/protoc-gen-swift"
grpc_plugin="$(cd "$work/grpc-swift-protobuf" && swift build --show-bin-path)/protoc-gen-grpc-swift-2"

echo "==> generating Sources/PubSubAPI"
python3 -m grpc_tools.protoc \
    --proto_path=Sources/PubSubAPI \
    --plugin=protoc-gen-swift="$swift_plugin" \
    --plugin=protoc-gen-grpc-swift-2="$grpc_plugin" \
    --swift_out=Sources/PubSubAPI \
    --swift_opt=Visibility=Public \
    --grpc-swift-2_out=Sources/PubSubAPI \
    --grpc-swift-2_opt=Visibility=Public,Client=true,Server=true \
    pubsub_api.proto
ls -l Sources/PubSubAPI
