#!/bin/sh
# The image's entrypoint. `docker run IMAGE validate x.yml` runs enginectl; a CI system that runs
# its job through the image's shell (GitLab's docker executor passes `sh -c ...`, Jenkins' docker
# agent `cat`) gets that program run as it asked, with no entrypoint override needed.
set -e
case "${1:-}" in
  '' | -* | run | validate | plan | report | verify | runs | lease | decide | shard | schema | matrix | api | emulator | help)
    exec /usr/local/bin/enginectl "$@" ;;
esac
# (No /dev/null here: a bare chroot has none.)
if found="$(command -v -- "$1")" && [ -n "$found" ]; then
  exec "$@"
fi
exec /usr/local/bin/enginectl "$@"
