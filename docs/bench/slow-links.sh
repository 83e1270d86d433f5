#!/usr/bin/env bash
# The packet delayer's ceiling and cost on this machine (docs/benchmarks.md, "Slow links"): two
# network namespaces joined by a veth, one TCP connection as fast as it goes from a to b for 5 s,
#   1. with no rule (the peer: the kernel alone),
#   2. through delayers with no delay (what the user-space hop costs: its ceiling),
#   3. through delayers holding each packet 10 ms each way,
#   4. the same with a tbf cap of 100mbit on a's side (the bandwidth fault's mechanism),
# and the UDP round trip added by the hop itself (delay 0). Packets a second come from the rules'
# own counters. Needs root, iproute2, iptables, a built lab/target/solrscale.jar and test classes
# (mvn -B -o -pl lab test-compile package -DskipTests). Removes what it made, by name, at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=$PWD/lab/target/solrscale.jar
CP=$PWD/lab/target/test-classes
JAVA=${JAVA:-java}
A=ssbench-a B=ssbench-b
cleanup() {
  for p in ${DPID:-} ${APID:-}; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
  ip netns del $A 2>/dev/null || true
  ip netns del $B 2>/dev/null || true
}
trap cleanup EXIT
ip netns add $A && ip netns add $B
ip link add ssb-va type veth peer name ssb-vb
ip link set ssb-va netns $A && ip link set ssb-vb netns $B
ip -n $A addr add 10.250.0.1/24 dev ssb-va && ip -n $B addr add 10.250.0.2/24 dev ssb-vb
for n in $A $B; do ip -n $n link set lo up; done
ip -n $A link set ssb-va up && ip -n $B link set ssb-vb up

bulk() { # prints Mbit/s of one connection a -> b for 5 s
  ip netns exec $B $JAVA -cp "$CP" org.solrscale.it.LinkProbeMain sink 10.250.0.2 >/tmp/ssb-sink.out &
  local s=$!
  for _ in $(seq 50); do grep -q port /tmp/ssb-sink.out 2>/dev/null && break; sleep 0.1; done
  ip netns exec $A $JAVA -cp "$CP" org.solrscale.it.LinkProbeMain bulk 10.250.0.2 "$(sed -n 's/port //p' /tmp/ssb-sink.out)" 5
  wait $s
  awk '/^bulk/ {printf "%.1f", $2 * 8 / 1e6 / $3}' /tmp/ssb-sink.out
}
rtt() { # the UDP round trip p50 in ms, 400 datagrams (echo on b)
  ip netns exec $B $JAVA -cp "$CP" org.solrscale.it.LinkProbeMain echo 10.250.0.2 30 >/tmp/ssb-echo.out &
  local e=$!
  for _ in $(seq 50); do grep -q port /tmp/ssb-echo.out 2>/dev/null && break; sleep 0.1; done
  ip netns exec $A $JAVA -cp "$CP" org.solrscale.it.LinkProbeMain probe 10.250.0.2 0 "$(sed -n "s/port //p" /tmp/ssb-echo.out)" 400 2>/dev/null |
    awk '/^udp [0-9]/ {print $2}' | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int(NR/2)+1]}'
  kill $e 2>/dev/null; wait $e 2>/dev/null || true
}
delayer() { # DELAY_MS: a delayer at each end holding what arrives from the other (as solrscale does)
  ip netns exec $B $JAVA -Xmx64m -XX:+UseSerialGC -jar "$JAR" net-delayer --queue 7 --delay-ms "$1" >/tmp/ssb-delayer.out 2>&1 &
  DPID=$!
  ip netns exec $A $JAVA -Xmx64m -XX:+UseSerialGC -jar "$JAR" net-delayer --queue 7 --delay-ms "$1" >/tmp/ssb-delayer-a.out 2>&1 &
  APID=$!
  for _ in $(seq 100); do grep -q ready /tmp/ssb-delayer.out && grep -q ready /tmp/ssb-delayer-a.out && break; sleep 0.1; done
  ip netns exec $B iptables -w -A INPUT -s 10.250.0.1 -j NFQUEUE --queue-num 7 --queue-bypass
  ip netns exec $A iptables -w -A INPUT -s 10.250.0.2 -j NFQUEUE --queue-num 7 --queue-bypass
}
nodelayer() {
  ip netns exec $A iptables -w -F INPUT; ip netns exec $B iptables -w -F INPUT
  kill "$DPID" "$APID"; wait "$DPID" "$APID" 2>/dev/null || true; DPID= APID=
}
# packets the data's delayer (in b) was given: the rule's own counter (GSO already cut to packets)
packets() { ip netns exec $B iptables -w -L INPUT -v -x -n | awk '/NFQUEUE/ {s+=$1} END {print s+0}'; }
cpu() { awk '{print ($14 + $15) / 100}' "/proc/$DPID/stat"; }

echo "machine: $(nproc) cores, $(uname -r), $(date -u +%F)"
echo "kernel alone: $(bulk) Mbit/s, udp rtt p50 $(rtt) ms"
delayer 0
c0=$(cpu); p0=$(packets); t0=$(date +%s.%N)
m=$(bulk)
p1=$(packets); t1=$(date +%s.%N); c1=$(cpu)
echo "delayer, 0 ms: $m Mbit/s, $(awk -v a=$p0 -v b=$p1 -v s=$t0 -v e=$t1 'BEGIN {printf "%.0f", (b - a) / (e - s)}') packets/s into b's delayer, its CPU $(awk -v a=$c0 -v b=$c1 'BEGIN {print b - a}') s, udp rtt p50 $(rtt) ms"
nodelayer
delayer 10
echo "delayer, 10 ms each way: $(bulk) Mbit/s, udp rtt p50 $(rtt) ms"
ip netns exec $A tc qdisc replace dev ssb-va root tbf rate 100mbit burst 125000 latency 100ms  # as bandwidth does
echo "delayer, 10 ms each way, tbf 100mbit: $(bulk) Mbit/s"
nodelayer
