# solrscale's agent on a host reached over SSH: run as `sh -s -- OP ARGS...` with this script on
# standard input, so nothing has to be installed first. POSIX sh and Linux /proc only. It touches
# only what solrscale recorded: a pid is signalled only while its command line carries the node's
# marker, and files only under the host's solrscale directory. solrscale runs it on this machine the
# same way, for the nodes it runs here.
set -u

# the host's solrscale directory: the spec's dir, else the lab host's own, else ~/.solrscale-host
hostdir() {
  if [ "$1" != "-" ]; then d=$1; else d=${SOLRSCALE_HOST_DIR:-$HOME/.solrscale-host}; fi
  mkdir -p "$d" && cd "$d" && pwd -P
}

# the java command of at least feature version $1: only $2/bin/java when a java home is given, else
# JAVA_HOME, the PATH, then /usr/lib/jvm/* and /opt/java/*; prints "path feature", "too-old path
# feature" or nothing
find_java() {
  min=$1
  if [ -n "$2" ]; then
    set -- "$2/bin/java"
  else
    set -- "${JAVA_HOME:+$JAVA_HOME/bin/java}" "$(command -v java 2>/dev/null)" \
      /usr/lib/jvm/*/bin/java /opt/java/*/bin/java
  fi
  for j in "$@"; do
    [ -n "$j" ] && [ -x "$j" ] || continue
    v=$("$j" -XshowSettings:properties -version 2>&1 </dev/null | sed -n 's/^ *java.specification.version = //p')
    v=${v#1.}
    case $v in ''|*[!0-9]*) continue ;; esac
    if [ "$v" -ge "$min" ]; then
      # the JDK's build, which a class-data archive must have been made with
      b=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' \
        "$(dirname "$(dirname "$(readlink -f "$j")")")/release" 2>/dev/null | head -n1)
      echo "$j $v ${b:--}"; return 0
    fi
    [ -z "${best:-}" ] && best="$j $v"
  done
  [ -n "${best:-}" ] && echo "too-old $best"
  return 0
}

# 0 when pid $1 runs with marker $2 as one of its arguments
ours() {
  [ -r "/proc/$1/cmdline" ] && tr '\0' '\n' <"/proc/$1/cmdline" 2>/dev/null | grep -qxF -- "$2"
}

# whether process PID has finished exiting: gone, or a zombie. A dying process loses its command
# line (and so its marker) before it has closed its files and sockets; until then it still holds
# its ports. Waits at most 30 s (PID was ours a moment ago, so reuse meanwhile is not a concern).
wait_exited() {
  j=0
  while [ $j -lt 3000 ]; do
    case $(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) in Z|X|'') return 0 ;; esac
    sleep 0.01; j=$((j + 1))
  done
}

state_of() {
  if [ "$1" -le 0 ] 2>/dev/null; then echo stopped; return; fi
  if ! ours "$1" "$2"; then echo dead; return; fi
  s=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
  case $s in T|t) echo paused ;; Z|X|'') echo dead ;; *) echo running ;; esac
}

# the TCP ports something listens on, one per line
listening() {
  for t in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$t" ] && awk 'NR > 1 && $4 == "0A" {split($2, a, ":"); print a[2]}' "$t"
  done | sort -u | while read -r hex; do printf '%d\n' "0x$hex"; done
}

# where the cgroup file systems are (a lab host's sshd mounts them again in its namespace)
cg_root() {
  r=/sys/fs/cgroup
  if [ -f "$r/cgroup.controllers" ] || [ -d "$r/cpu" ] || [ -d "$r/memory" ]; then
    echo "$r"
    return 0
  fi
  return 1
}

# the directory of this shell's cgroup for controller $1 (v1), or in the one v2 hierarchy (no $1)
cg_base() {
  r=$(cg_root) || return 1
  if [ -z "${1:-}" ]; then
    p=$(sed -n 's/^0:://p' /proc/self/cgroup)
    echo "$r${p%/}"
  else
    [ -d "$r/$1" ] || return 1
    p=$(awk -F: -v c="$1" '{n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3}' /proc/self/cgroup | head -n1)
    echo "$r/$1${p%/}"
  fi
}

cg_v2() { r=$(cg_root) && [ -f "$r/cgroup.controllers" ]; }

# what this shell's own cgroups allow (a lab host's limits, say): "cpus 0.5, memory 1024m" or ""
cg_limits() {
  out=""
  if cg_v2; then
    b=$(cg_base)
    q=$(cat "$b/cpu.max" 2>/dev/null)
    case $q in ''|max*) ;; *) out="cpus $(echo "$q" | awk '{printf "%g", $1 / $2}')" ;; esac
    m=$(cat "$b/memory.max" 2>/dev/null)
    case $m in ''|max) ;; *) out="${out:+$out, }memory $((m / 1048576))m" ;; esac
  else
    b=$(cg_base cpu) && q=$(cat "$b/cpu.cfs_quota_us" 2>/dev/null) && p=$(cat "$b/cpu.cfs_period_us" 2>/dev/null)
    case ${q:--1} in -*) ;; *) out="cpus $(awk -v q="$q" -v p="$p" 'BEGIN {printf "%g", q / p}')" ;; esac
    b=$(cg_base memory) && m=$(cat "$b/memory.limit_in_bytes" 2>/dev/null)
    if [ -n "${m:-}" ] && [ "${#m}" -lt 16 ]; then out="${out:+$out, }memory $((m / 1048576))m"; fi
  fi
  echo "$out"
}

# puts this shell (and so what it starts) into cgroup NAME under its own, made with the limits:
# a CPU quota in microseconds per 100 ms, cores for cpuset, memory in bytes ("-" for none). Each
# directory made is recorded in file REC, for cgroup-rm.
cg_enter() {
  name=$1; quota=$2; cores=$3; mem=$4; rec=$5
  [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
  cg_root >/dev/null || { echo "no cgroup file system is mounted at /sys/fs/cgroup" >&2; exit 9; }
  mkdir -p "$(dirname "$rec")" || exit 9
  if cg_v2; then
    base=$(cg_base); d="$base/$name"
    for c in cpu:$quota cpuset:$cores memory:$mem; do
      [ "${c#*:}" = - ] && continue
      echo "+${c%%:*}" >"$base/cgroup.subtree_control" ||
        { echo "cgroup v2: $base cannot hand ${c%%:*} to child cgroups; run sshd there in a cgroup of its own" >&2; exit 9; }
    done
    mkdir -p "$d" || exit 9
    grep -qxF "$d" "$rec" 2>/dev/null || echo "$d" >>"$rec"
    if [ "$quota" != - ]; then echo "$quota 100000" >"$d/cpu.max" || exit 9; fi
    if [ "$cores" != - ]; then echo "$cores" >"$d/cpuset.cpus" || exit 9; fi
    if [ "$mem" != - ]; then echo "$mem" >"$d/memory.max" || exit 9; fi
    echo $$ >"$d/cgroup.procs" || exit 9
    return 0
  fi
  for c in cpu:$quota cpuset:$cores memory:$mem; do
    ctl=${c%%:*}; v=${c#*:}
    [ "$v" = - ] && continue
    base=$(cg_base "$ctl") || { echo "no cgroup $ctl controller is mounted" >&2; exit 9; }
    d="$base/$name"
    mkdir -p "$d" || exit 9
    grep -qxF "$d" "$rec" 2>/dev/null || echo "$d" >>"$rec"
    case $ctl in
    cpu) echo 100000 >"$d/cpu.cfs_period_us" && echo "$v" >"$d/cpu.cfs_quota_us" ;;
    cpuset) cat "$base/cpuset.mems" >"$d/cpuset.mems" && echo "$v" >"$d/cpuset.cpus" ;;
    memory) echo "$v" >"$d/memory.limit_in_bytes" ;;
    esac || { echo "cannot set $ctl of $d to $v" >&2; exit 9; }
    echo $$ >"$d/cgroup.procs" || exit 9
  done
}

op=$1
shift
case $op in
where) # DIR|-  -> dir= and rsync= lines: what commands that only stop, ask and fetch need
  d=$(hostdir "$1") || { echo "error=cannot create ${1}"; exit 0; }
  echo "dir=$d"
  command -v rsync >/dev/null 2>&1 && echo "rsync=yes" || echo "rsync=no"
  ;;
probe) # DIR MIN_JAVA JAVA_HOME|-  -> key=value lines
  d=$(hostdir "$1") || { echo "error=cannot create ${1}"; exit 0; }
  echo "dir=$d"
  jh=$3; [ "$jh" = "-" ] && jh=""
  echo "java=$(find_java "$2" "$jh")"
  echo "free_mb=$(df -Pm "$d" | awk 'NR==2 {print $4}')"
  command -v rsync >/dev/null 2>&1 && echo "rsync=yes" || echo "rsync=no"
  echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
  echo "cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)"
  echo "memory_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)"
  echo "os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")"
  echo "kernel=$(uname -r)"
  echo "listening=$(listening | tr '\n' ',')"
  echo "root=$([ "$(id -u)" = 0 ] && echo yes || echo no)"
  echo "limits=$(cg_limits)"
  ;;
listening) # the TCP ports something listens on, one per line
  listening
  ;;
mkdir) # PATH...
  mkdir -p -- "$@"
  ;;
has) # PATH...: "yes" or "no" for each, one per line
  for p in "$@"; do [ -e "$p" ] && echo yes || echo no; done
  ;;
commit) # PARTIAL FINAL: a copied directory becomes complete
  if [ -e "$2" ]; then rm -rf "$1"; else mv "$1" "$2"; fi
  ;;
cgroup-exec) # NAME QUOTA CORES MEMORY RECORD CMD...: runs CMD in the cgroup (see cg_enter), in place
  cg_enter "$1" "$2" "$3" "$4" "$5"
  shift 5
  exec "$@"
  ;;
state) # PID MARKER [PID MARKER ...] -> one state per pair
  while [ $# -ge 2 ]; do state_of "$1" "$2"; shift 2; done
  ;;
signal) # SIGNAL PID MARKER -> "yes" when it was ours and alive, once the signal took effect
  if ! ours "$2" "$3"; then echo no; exit 0; fi
  kill "-$1" "$2" 2>/dev/null
  # signals are asynchronous: wait (a while) until the kernel shows what this one did
  case $1 in KILL) want=dead ;; STOP) want=paused ;; CONT) want=running ;; *) want= ;; esac
  i=0
  while [ -n "$want" ] && [ $i -lt 3000 ] && [ "$(state_of "$2" "$3")" != "$want" ]; do
    [ "$want" = running ] && [ "$(state_of "$2" "$3")" = dead ] && break
    sleep 0.01; i=$((i + 1))
  done
  [ "$want" = dead ] && wait_exited "$2"
  echo yes
  ;;
stop) # PID MARKER GRACE_SECONDS -> "yes" when it was running
  pid=$1; marker=$2; grace=$3
  if ! ours "$pid" "$marker"; then echo no; exit 0; fi
  kill -CONT "$pid" 2>/dev/null
  kill -TERM "$pid" 2>/dev/null
  i=0
  while ours "$pid" "$marker" && [ "$(state_of "$pid" "$marker")" != dead ] && [ $i -lt $((grace * 10)) ]; do
    sleep 0.1; i=$((i + 1))
  done
  if ours "$pid" "$marker" && [ "$(state_of "$pid" "$marker")" != dead ]; then
    kill -KILL "$pid" 2>/dev/null
    i=0
    while [ "$(state_of "$pid" "$marker")" != dead ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
  fi
  wait_exited "$pid"
  echo yes
  ;;
tail) # FILE LINES
  [ -r "$1" ] && tail -n "$2" "$1"
  ;;
grep) # FILE TEXT...: the lines of FILE and of its rolled-over copies (FILE.1 ...) that hold a TEXT
  f=$1; shift
  for g in "$f" "$f".[0-9]*; do
    [ -r "$g" ] || continue
    grep -h -F -- "$(printf '%s\n' "$@")" "$g" || [ $? -eq 1 ] || exit 2
  done
  ;;
rm) # HOSTDIR PATH...: deletes paths that lie under the host's solrscale directory
  base=$1; shift
  for p in "$@"; do
    case $p in "$base"/*) rm -rf -- "$p" ;; *) echo "refused: $p is not under $base" >&2; exit 4 ;; esac
  done
  ;;
cgroup-rm) # REC: removes the cgroups recorded in file REC (once nothing runs in them)
  [ -f "$1" ] || exit 0
  left=""
  for d in $(sort -r "$1"); do
    case $d in /sys/fs/cgroup/*) ;; *) continue ;; esac
    if [ -d "$d" ] && ! rmdir "$d" 2>/dev/null; then left="$left $d"; fi
  done
  if [ -n "$left" ]; then echo "still in use:$left" >&2; exit 10; fi
  rm -f "$1"
  ;;
drop-caches) # the OS page cache, dentries and inodes dropped (cold-cache measurements)
  [ -w /proc/sys/vm/drop_caches ] || { echo "not root" >&2; exit 5; }
  sync && echo 3 >/proc/sys/vm/drop_caches
  ;;
routes) # block|unblock ADDR...: blackhole routes to the addresses (a partition), or none
  [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
  command -v ip >/dev/null 2>&1 || { echo "no ip command (iproute2)" >&2; exit 6; }
  how=$1; shift
  for a in "$@"; do
    if [ "$how" = block ]; then
      ip route replace blackhole "$a/32" || exit 7
    else
      ip route del blackhole "$a/32" 2>/dev/null
    fi
  done
  exit 0
  ;;
slow-check) # whether a slow link can be made here: root and iptables
  [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
  command -v iptables >/dev/null 2>&1 || [ -x /usr/sbin/iptables ] \
    || { echo "no iptables command (install the iptables package)" >&2; exit 6; }
  ;;
slow) # HOSTDIR ID QUEUE PID MARKER ADDR...: what this host gets from the addresses goes through
  # netfilter queue QUEUE to the delayer PID (held where it arrives: see cluster.SlowLinks), chain
  # sslow-ID-i; recorded first in HOSTDIR/faults/slow-ID so that unslow removes it all even after
  # a crash
  [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
  ipt=$(command -v iptables || echo /usr/sbin/iptables)
  [ -x "$ipt" ] || { echo "no iptables command (the iptables package)" >&2; exit 6; }
  base=$1; id=$2; q=$3; pid=$4; marker=$5; shift 5
  chain="sslow-$id"
  mkdir -p "$base/faults"
  printf '%s %s %s\n' "$chain" "$pid" "$marker" >"$base/faults/slow-$id"
  "$ipt" -w -N "$chain-i" || exit 7
  for a in "$@"; do
    "$ipt" -w -A "$chain-i" -s "$a/32" -j NFQUEUE --queue-num "$q" --queue-bypass || exit 7
  done
  "$ipt" -w -I INPUT -j "$chain-i" || exit 7
  ;;
unslow) # HOSTDIR ID|all [CLUSTER]: the slow faults recorded there: their rules removed, their
  # delayers stopped; with all, also any delayer of CLUSTER that ran before its record was written
  base=$1; which=$2; cl=${3:-}
  if [ "$which" = all ]; then set -- "$base"/faults/slow-*; else set -- "$base/faults/slow-$which"; fi
  ipt=$(command -v iptables || echo /usr/sbin/iptables)
  for rec in "$@"; do
    [ -f "$rec" ] || continue
    read -r chain pid marker <"$rec"
    if [ -x "$ipt" ]; then
      # the jump first, so that nothing more is queued, then the chain
      while "$ipt" -w -D INPUT -j "$chain-i" 2>/dev/null; do :; done
      "$ipt" -w -F "$chain-i" 2>/dev/null && "$ipt" -w -X "$chain-i" 2>/dev/null
    fi
    if ours "$pid" "$marker"; then
      kill -TERM "$pid" 2>/dev/null
      i=0
      while ours "$pid" "$marker" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
      ours "$pid" "$marker" && kill -KILL "$pid" 2>/dev/null
      wait_exited "$pid"
    fi
    rm -f "$rec" "$base/faults/delayer-${rec##*/slow-}.log"
    echo "$chain"
  done
  if [ "$which" = all ] && [ -n "$cl" ]; then
    for d in /proc/[0-9]*; do
      tr '\0' '\n' <"$d/cmdline" 2>/dev/null | grep -q "^-Dsolrscale\.slow=$cl/" || continue
      pid=${d#/proc/}
      kill -TERM "$pid" 2>/dev/null && wait_exited "$pid"
      echo "delayer $pid"
    done
  fi
  ;;
cap) # HOSTDIR ADDR RATE BURST | HOSTDIR ADDR -: cap what leaves the device of ADDR, or restore it
  [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
  command -v tc >/dev/null 2>&1 || { echo "no tc command (iproute2)" >&2; exit 6; }
  dev=$(ip -o -4 addr show | awk -v a="$2" '{split($4, x, "/"); if (x[1] == a) print $2}' | head -n1)
  [ -n "$dev" ] || dev=$(ip route get "$2" 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p' | head -n1)
  [ -n "$dev" ] || { echo "no device carries $2" >&2; exit 8; }
  saved="$1/faults/bandwidth-$dev"
  if [ "$3" != "-" ]; then
    mkdir -p "$1/faults"
    [ -e "$saved" ] || tc qdisc show dev "$dev" root | head -n1 >"$saved"
    tc qdisc replace dev "$dev" root tbf rate "$3" burst "$4" latency 100ms || exit 7
  else
    prev=$(cat "$saved" 2>/dev/null)
    rm -f "$saved"
    case $prev in
    "qdisc tbf "*)
      r=$(echo "$prev" | sed -n 's/.* rate \([^ ]*\).*/\1/p')
      b=$(echo "$prev" | sed -n 's/.* burst \([^ ]*\).*/\1/p')
      l=$(echo "$prev" | sed -n 's/.* lat \([^ ]*\).*/\1/p')
      tc qdisc replace dev "$dev" root tbf rate "$r" burst "$b" latency "${l:-50ms}" || exit 7
      ;;
    *) tc qdisc del dev "$dev" root 2>/dev/null ;;
    esac
  fi
  echo "$dev"
  ;;
memory) # NAME [BYTES]: the memory cgroup NAME under this shell's (a cluster's nodes on this host):
  # with BYTES its limit set first; prints limit=, rss=, cache=, swap=, failcnt= (bytes; limit
  # "max" for none)
  cg_root >/dev/null || { echo "no cgroup file system is mounted at /sys/fs/cgroup" >&2; exit 9; }
  if cg_v2; then d="$(cg_base)/$1"; lim=memory.max; else d="$(cg_base memory)/$1"; lim=memory.limit_in_bytes; fi
  [ -d "$d" ] || { echo "no memory cgroup $d (the cluster's nodes here run without a memory limit)" >&2; exit 9; }
  if [ -n "${2:-}" ]; then
    [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
    echo "$2" >"$d/$lim" 2>/dev/null || { echo "the kernel refused a memory limit of $(($2 / 1048576)) MB for $d: what runs there holds more than that" >&2; exit 11; }
  fi
  l=$(cat "$d/$lim")
  case $l in max|????????????????*) l=max ;; esac
  echo "limit=$l"
  if cg_v2; then
    awk '$1 == "anon" {print "rss=" $2} $1 == "file" {print "cache=" $2}' "$d/memory.stat"
    echo "swap=$(cat "$d/memory.swap.current" 2>/dev/null || echo 0)"
    echo "failcnt=$(awk '$1 == "max" {print $2}' "$d/memory.events" 2>/dev/null)"
  else
    awk '$1 == "total_rss" {print "rss=" $2} $1 == "total_cache" {print "cache=" $2} $1 == "total_swap" {print "swap=" $2}' "$d/memory.stat"
    echo "failcnt=$(cat "$d/memory.failcnt")"
  fi
  ;;
thp) # MODE|-: transparent huge pages (always, madvise, never), set unless -; prints the mode before
  f=/sys/kernel/mm/transparent_hugepage/enabled
  [ -r "$f" ] || { echo "this kernel has no transparent huge pages ($f)" >&2; exit 6; }
  sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$f"
  if [ "$1" != - ]; then
    [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
    echo "$1" >"$f" || exit 7
  fi
  ;;
swap-on) # FILE BYTES: a swap file of BYTES made and switched on
  [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
  command -v swapon >/dev/null 2>&1 || [ -x /usr/sbin/swapon ] || { echo "no swapon command (util-linux)" >&2; exit 6; }
  PATH=$PATH:/usr/sbin:/sbin
  mkdir -p "$(dirname "$1")" && rm -f "$1" &&
    dd if=/dev/zero of="$1" bs=1048576 count=$(($2 / 1048576)) status=none && chmod 600 "$1" &&
    mkswap "$1" >/dev/null || { rm -f "$1"; echo "cannot make a swap file $1" >&2; exit 7; }
  swapon "$1" 2>&1 || { rm -f "$1"; echo "the kernel refused swap file $1 (its file system may not allow swap files)" >&2; exit 7; }
  ;;
swap-off) # FILE: the swap file switched off and deleted (one already gone is fine)
  PATH=$PATH:/usr/sbin:/sbin
  [ -e "$1" ] || exit 0
  if grep -q "^$1 " /proc/swaps; then swapoff "$1" || exit 7; fi
  rm -f "$1"
  ;;
blkio) # NAME PATH IOPS|- REC: the processes of the cluster's cgroup NAME here moved into blkio cgroup
  # NAME, whose reads from the disk that holds PATH are throttled to IOPS a second (a slow disk);
  # with - they go back and the blkio cgroup is removed. The cgroup is recorded in file REC (as
  # cg_enter does), so that down removes it even when nothing put it back. Prints "MAJ:MIN MOVED".
  [ "$(id -u)" = 0 ] || { echo "not root" >&2; exit 5; }
  cg_root >/dev/null || { echo "no cgroup file system is mounted at /sys/fs/cgroup" >&2; exit 9; }
  cg_v2 && { echo "read_iops needs cgroup v1's blkio controller (this host has cgroup v2)" >&2; exit 9; }
  b=$(cg_base blkio) || { echo "no cgroup blkio controller is mounted here" >&2; exit 9; }
  d="$b/$1"
  if [ "$3" = - ]; then
    [ -d "$d" ] || exit 0
    for p in $(cat "$d/cgroup.procs"); do echo "$p" >"$b/cgroup.procs" 2>/dev/null; done
    rmdir "$d" || { echo "cannot remove $d" >&2; exit 9; }
    exit 0
  fi
  dev=$(stat -c '%Hd:%Ld' "$2") || exit 8
  case $dev in 0:*) echo "$2 is on no block device (tmpfs or overlay?); read_iops throttles a disk" >&2; exit 8 ;; esac
  if [ -f "/sys/dev/block/$dev/partition" ]; then dev=$(cat "$(dirname "$(readlink -f "/sys/dev/block/$dev")")/dev"); fi
  src=""
  for c in memory cpu cpuset; do
    s="$(cg_base "$c" 2>/dev/null)/$1"
    if [ -f "$s/cgroup.procs" ]; then src=$s; break; fi
  done
  [ -n "$src" ] || { echo "no cgroup $1 holds the cluster's nodes here" >&2; exit 9; }
  mkdir -p "$d" || exit 9
  grep -qxF "$d" "$4" 2>/dev/null || echo "$d" >>"$4"
  echo "$dev $3" >"$d/blkio.throttle.read_iops_device" || { echo "the kernel refused to throttle device $dev" >&2; exit 7; }
  n=0
  for p in $(cat "$src/cgroup.procs"); do echo "$p" >"$d/cgroup.procs" 2>/dev/null && n=$((n + 1)); done
  echo "$dev $n"
  ;;
cached) # HOME COLLECTION: bytes of the collection's index files under the Solr home HOME, and of
  # them in the page cache now: "CACHED SIZE CORE" per core
  command -v fincore >/dev/null 2>&1 || { echo "no fincore command (util-linux)" >&2; exit 6; }
  home=$1; coll=$2
  grep -rlx --include=core.properties "collection=$coll" "$home" 2>/dev/null | while read -r p; do
    c=$(dirname "$p")
    [ -d "$c/data" ] || continue
    find "$c/data" -type f -path '*/index*' -print0 | xargs -0 -r fincore --bytes --noheadings --raw --output RES,SIZE |
      awk -v c="${c##*/}" '{r += ($1 > $2 ? $2 : $1); s += $2} END {printf "%d %d %s\n", r, s, c}'
  done
  ;;
*)
  echo "unknown op $op" >&2
  exit 2
  ;;
esac
