#!/usr/bin/env bash
# The packet delayer on a busy host (docs/benchmarks.md, "Slow links"): two network namespaces
# joined by a veth, a delayer at each end holding what arrives from the other 20 ms, and the tests'
# own UDP probe and echo (LinkProbeMain, a datagram every 5 ms), themselves at real-time priority
# (chrt -f 20) so that what is measured is the delayers' lateness, while three busy loops (bounded
# by `timeout`) compete for this machine's cores. Run twice in one go: the delayers at normal
# priority (--normal-priority: the peer), then at their default real-time priority.
# Needs root, iproute2, iptables, chrt, a built lab/target/solrscale.jar and test classes
# (mvn -B -o -pl lab test-compile package -DskipTests). Removes what it made, by name and pid, at
# the end. Usage: docs/bench/delayer-priority.sh [DATAGRAMS]
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=$PWD/lab/target/solrscale.jar
CP=$PWD/lab/target/test-classes
JAVA=${JAVA:-java}
N=${1:-3000}
A=ssprio-a B=ssprio-b
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
  ip netns del $A 2>/dev/null || true
  ip netns del $B 2>/dev/null || true
}
trap cleanup EXIT
ip netns add $A && ip netns add $B
ip link add ssp-va type veth peer name ssp-vb
ip link set ssp-va netns $A && ip link set ssp-vb netns $B
ip -n $A addr add 10.249.0.1/24 dev ssp-va && ip -n $B addr add 10.249.0.2/24 dev ssp-vb
for n in $A $B; do ip -n $n link set lo up; done
ip -n $A link set ssp-va up && ip -n $B link set ssp-vb up
ip netns exec $B iptables -w -A INPUT -s 10.249.0.1 -j NFQUEUE --queue-num 7 --queue-bypass
ip netns exec $A iptables -w -A INPUT -s 10.249.0.2 -j NFQUEUE --queue-num 7 --queue-bypass

run() { # EXTRA_ARGS: one measurement: the UDP round trip's p50, p90, p99 and max in ms
  ip netns exec $A $JAVA -Xmx64m -XX:+UseSerialGC -jar "$JAR" net-delayer --queue 7 --delay-ms 20 --seed 1 "$@" >/tmp/ssp-a.out 2>&1 &
  local a=$!
  ip netns exec $B $JAVA -Xmx64m -XX:+UseSerialGC -jar "$JAR" net-delayer --queue 7 --delay-ms 20 --seed 2 "$@" >/tmp/ssp-b.out 2>&1 &
  local b=$!
  ip netns exec $B chrt -f 20 $JAVA -cp "$CP" org.solrscale.it.LinkProbeMain echo 10.249.0.2 $((N / 150 + 60)) >/tmp/ssp-echo.out &
  local e=$!
  PIDS+=("$a" "$b" "$e")
  for _ in $(seq 100); do grep -q priority /tmp/ssp-a.out && grep -q priority /tmp/ssp-b.out && grep -q port /tmp/ssp-echo.out && break; sleep 0.1; done
  echo "# delayers: $(grep -h priority /tmp/ssp-a.out | head -1)"
  local hogs=()
  for _ in 1 2 3; do timeout $((N / 150 + 30)) sh -c 'while :; do :; done' & hogs+=($!); done
  PIDS+=("${hogs[@]}")
  sleep 1
  ip netns exec $A chrt -f 20 $JAVA -cp "$CP" org.solrscale.it.LinkProbeMain probe 10.249.0.2 0 "$(sed -n 's/port //p' /tmp/ssp-echo.out)" "$N" 2>/dev/null |
    awk '/^udp [0-9]/ {print $2}' | sort -n |
    awk '{v[NR]=$1} END {printf "udp round trip p50 %.2f  p90 %.2f  p99 %.2f  max %.2f ms (%d datagrams back)\n", v[int(NR*0.5)+1], v[int(NR*0.9)+1], v[int(NR*0.99)+1], v[NR], NR}'
  for p in "${hogs[@]}" $e $a $b; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null || true; done
}
echo "normal priority:"; run --normal-priority
echo "real-time priority:"; run
