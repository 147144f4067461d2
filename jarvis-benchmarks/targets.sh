# Sourced by host-load.sh and pinned-ratios.sh: one target server at a time, started in the
# background and stopped. The sourcing script sets $out (where each target's output goes).

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Runs the command in the background, waits for its "listening on" line; sets TARGET.
start_target() { # name, command...
  local name=$1
  shift
  "$@" > "$out/$name.out" 2> "$out/$name.err" &
  TARGET=$!
  for _ in $(seq 1 600); do
    if grep -q "listening on" "$out/$name.out" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$TARGET" 2>/dev/null; then
      echo "$name did not start:" >&2
      cat "$out/$name.err" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "$name did not start within 60 s" >&2
  kill "$TARGET"
  exit 1
}

stop_target() {
  kill "$TARGET" 2>/dev/null || true
  wait "$TARGET" 2>/dev/null || true
  TARGET=""
}
