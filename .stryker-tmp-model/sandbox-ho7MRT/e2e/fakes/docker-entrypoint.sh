#!/bin/sh
# The node image's entrypoint: a first argument that is an option or not a command runs node with it.
if [ "${1#-}" != "$1" ] || ! command -v "$1" >/dev/null 2>&1; then
  set -- node "$@"
fi
exec "$@"
