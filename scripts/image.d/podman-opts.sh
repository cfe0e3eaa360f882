# shellcheck shell=bash
# podman_opts IMAGE: sets PODMAN_GLOBAL and PODMAN_LIMITS to what podman needs on this machine to run IMAGE,
# and writes them to target/podman-opts (the image smoke test reads them there):
#   - nothing, where the defaults work;
#   - else runc instead of crun (crun refuses hybrid cgroup hierarchies) and resource limits no higher than
#     this process's hard limits (without CAP_SYS_RESOURCE the runtime may not raise them, and podman asks
#     for a million open files by default), said in one line.
# Returns 1, with podman's error, when neither runs a container (no namespaces, no overlay: the kernel or
# the machine cannot run containers here).
podman_opts() {
  local image=$1 err
  PODMAN_GLOBAL=
  PODMAN_LIMITS=
  if ! err=$(podman run --rm --network none "$image" true 2>&1); then
    PODMAN_GLOBAL="--runtime runc"
    PODMAN_LIMITS="--ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=$(ulimit -Hu):$(ulimit -Hu)"
    command -v runc >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends runc >/dev/null
    # shellcheck disable=SC2086
    if ! podman $PODMAN_GLOBAL run --rm --network none $PODMAN_LIMITS "$image" true >/dev/null 2>&1; then
      # Where even the current hard process limit is refused: a fixed 4096 processes.
      PODMAN_LIMITS="--ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=4096:4096"
      # shellcheck disable=SC2086
      if ! podman $PODMAN_GLOBAL run --rm --network none $PODMAN_LIMITS "$image" true >/dev/null 2>&1; then
        echo "scripts/image: podman cannot run a container here: ${err##*$'\n'}" >&2
        return 1
      fi
    fi
    echo "scripts/image: the default runtime failed here (${err##*$'\n'}): using podman $PODMAN_GLOBAL with $PODMAN_LIMITS" >&2
  fi
  mkdir -p "$root/target"
  printf 'PODMAN_GLOBAL=%q\nPODMAN_LIMITS=%q\n' "$PODMAN_GLOBAL" "$PODMAN_LIMITS" >"$root/target/podman-opts"
}
