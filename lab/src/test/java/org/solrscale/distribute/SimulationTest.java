package org.solrscale.distribute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.solrscale.distribute.Simulation.Machine;
import org.solrscale.distribute.Simulation.Measured;
import org.solrscale.distribute.Simulation.Outcome;
import org.solrscale.results.Route;

/**
 * The distribution simulation: its mechanics on cases worked by hand, then the lab's calibration
 * point (docs/findings/distribution-etsy.md, docs/scale.md): fitted to the chain runs at 8 and 12
 * replicas, it must predict the run at 16, chain and tree, within 15 %.
 */
class SimulationTest {
  // `HOSTS=17 NS="8 12 16" CREATES="each together" docs/bench/distribute.sh /tmp/bd16 100000
  // 50mbit shard1` at 248b298, 2026-11-30: shard1 of 55,426,259 bytes in 1 MiB chunks on 17 lab
  // hosts sharing 2 cores; each run's distribute.json (phases; the last target's
  // seconds_to_active), cores created together
  static final long BYTES = 55_426_259L;
  static final int CHUNK = 1 << 20;
  static final Measured CHAIN_8 = new Measured(8, 3.82, 14.12, 16.35, 18.20);
  static final Measured CHAIN_12 = new Measured(12, 5.93, 16.36, 21.21, 23.62);
  static final Measured CHAIN_16 = new Measured(16, 8.19, 19.32, 29.93, 33.48);
  static final Measured TREE_16 = new Measured(16, 7.88, 27.75, 31.38, 34.75);

  @Test
  void oneHopWithoutCpuIsTheBytesOverTheLinkAndAChainAddsOneChunkPerHop() {
    Machine wire = new Machine(1_000_000, 0, Double.POSITIVE_INFINITY, 0, 0, 0);
    Outcome one = Simulation.run(wire, 10_000_000, 1_000_000, 1, 1);
    assertThat(one.dataComplete()).isCloseTo(10.0, within(1e-9));
    // store and forward: each further hop adds one chunk's time on the wire
    Outcome four = Simulation.run(wire, 10_000_000, 1_000_000, 4, 1);
    assertThat(four.dataComplete()).isCloseTo(13.0, within(1e-9));
    assertThat(four.sourceDone()).isCloseTo(10.0, within(1e-9));
    // a tree's source sends every chunk to two children: twice the bytes through its uplink
    Outcome tree = Simulation.run(wire, 10_000_000, 1_000_000, 2, 2);
    assertThat(tree.sourceDone()).isCloseTo(20.0, within(1e-9));
    assertThat(tree.dataComplete()).isCloseTo(20.0, within(1e-9));
  }

  @Test
  void relaysSharingCoresWaitForThemAndStartsAndCoreCreationsQueueOnThem() {
    // one relay, 1 s of CPU per chunk, the wire instant: its 3 chunks take 3 s
    Machine cpu = new Machine(1e12, 1.0, 2, 0.5, 1.0, 0.25);
    Outcome one = Simulation.run(cpu, 3, 1, 1, 1);
    assertThat(one.listening()).isCloseTo(0.5, within(1e-9));
    assertThat(one.dataComplete()).isCloseTo(3.5, within(1e-6));
    assertThat(one.active()).isCloseTo(3.5 + 1.0 + 0.25, within(1e-6));
    // four relays on 2 cores: each start takes its 0.5 CPU-seconds at half speed
    assertThat(Simulation.run(cpu, 3, 1, 4, 1).listening()).isCloseTo(1.0, within(1e-9));
    // on hosts of their own the cores do not queue
    Outcome fleet = Simulation.run(cpu.withCores(Double.POSITIVE_INFINITY), 3, 1, 4, 1);
    assertThat(fleet.listening()).isCloseTo(0.5, within(1e-9));
    assertThat(fleet.dataComplete()).isCloseTo(0.5 + 3 + 3, within(1e-6)); // 3 hops of 1 s
  }

  @Test
  void theRouteIsRoutesOwnChainAndTree() {
    for (int n : List.of(1, 2, 7, 16, 31)) {
      for (int fanout : List.of(1, 2, 3)) {
        List<String> addresses =
            java.util.stream.IntStream.rangeClosed(1, n).mapToObj(i -> "h" + i).toList();
        Route r = fanout == 1 ? Route.chain(addresses) : Route.tree(addresses, fanout);
        List<List<Integer>> children = Simulation.route(n, fanout);
        assertThat(childrenOf(r)).as(n + "/" + fanout).isEqualTo(children);
      }
    }
  }

  static List<List<Integer>> childrenOf(Route root) {
    List<String> all = root.targets();
    List<List<Integer>> out = new java.util.ArrayList<>();
    for (int i = 0; i <= all.size(); i++) {
      out.add(new java.util.ArrayList<>());
    }
    java.util.Deque<Route> todo = new java.util.ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      Route r = todo.poll();
      int from = r.address() == null ? 0 : Integer.parseInt(r.address().substring(1));
      for (Route c : r.children()) {
        out.get(from).add(Integer.parseInt(c.address().substring(1)));
        todo.add(c);
      }
    }
    return out;
  }

  /**
   * The plan in docs/scale.md: the lab's calibrated machine on hosts of their own (each relay its
   * own core), at 100 and 1,000 replicas, for the lab's shard on the lab's links and a 5 GB shard
   * on 1 Gbit/s links; against Solr's own way (every replica from the leader's uplink).
   */
  @Test
  void thePlanForHundredsOfReplicasOnHostsOfTheirOwn() {
    Machine lab = Simulation.calibrate(CHAIN_8, CHAIN_12, BYTES, CHUNK, 2);
    Machine fleet = lab.withCores(Double.POSITIVE_INFINITY);
    Machine gigabit =
        new Machine(
            125e6,
            lab.chunkCpu(),
            Double.POSITIVE_INFINITY,
            lab.relayStartCpu(),
            lab.createSeconds(),
            lab.createCpu());
    for (int n : List.of(16, 100, 1000)) {
      for (Object[] c :
          List.of(
              new Object[] {"55 MB, 5.4 MB/s links", fleet, BYTES},
              new Object[] {"5 GB, 1 Gbit/s links", gigabit, 5_000_000_000L})) {
        Machine m = (Machine) c[1];
        long bytes = (long) c[2];
        Outcome chain = Simulation.run(m, bytes, CHUNK, n, 1);
        Outcome tree = Simulation.run(m, bytes, CHUNK, n, 2);
        double solr = n * bytes / m.linkRate();
        System.out.printf(
            "%5d replicas, %s: chain %.1f s (data %.1f), tree %.1f s (data %.1f), Solr's own"
                + " at least %.0f s%n",
            n,
            c[0],
            chain.active(),
            chain.dataComplete(),
            tree.active(),
            tree.dataComplete(),
            solr);
        // no way beats one copy over one link, and a chain's tail grows with its length
        assertThat(chain.dataComplete()).isGreaterThanOrEqualTo(bytes / m.linkRate());
        assertThat(tree.dataComplete()).isGreaterThanOrEqualTo(2 * bytes / m.linkRate() * 0.99);
        assertThat(chain.active()).isLessThan(solr);
      }
    }
    double c100 = Simulation.run(fleet, BYTES, CHUNK, 100, 1).dataComplete();
    double c1000 = Simulation.run(fleet, BYTES, CHUNK, 1000, 1).dataComplete();
    assertThat(c1000 - c100).isGreaterThan(900 * (CHUNK / fleet.linkRate()));
  }

  @Test
  void fittedAtEightAndTwelveReplicasItPredictsTheLabRunAtSixteenWithin15Percent() {
    Machine lab = Simulation.calibrate(CHAIN_8, CHAIN_12, BYTES, CHUNK, 2);
    Outcome chain = Simulation.run(lab, BYTES, CHUNK, 16, 1);
    Outcome tree = Simulation.run(lab, BYTES, CHUNK, 16, 2);
    System.out.printf(
        "calibrated: link %.2f MB/s, %.1f ms CPU a chunk, relay start %.2f CPU-s, core creation"
            + " %.2f s + %.2f CPU-s each%n",
        lab.linkRate() / 1e6,
        lab.chunkCpu() * 1e3,
        lab.relayStartCpu(),
        lab.createSeconds(),
        lab.createCpu());
    System.out.printf(
        "16 replicas: chain %.1f s (measured %.1f), tree %.1f s (measured %.1f)%n",
        chain.active(), CHAIN_16.active(), tree.active(), TREE_16.active());
    assertThat(chain.active()).isCloseTo(CHAIN_16.active(), within(0.15 * CHAIN_16.active()));
    assertThat(tree.active()).isCloseTo(TREE_16.active(), within(0.15 * TREE_16.active()));
    // the fit reproduces the runs it was fitted to
    assertThat(Simulation.run(lab, BYTES, CHUNK, 12, 1).dataComplete())
        .isCloseTo(CHAIN_12.dataComplete(), within(0.05));
    assertThat(Simulation.run(lab, BYTES, CHUNK, 8, 1).active())
        .isCloseTo(CHAIN_8.active(), within(0.15 * CHAIN_8.active()));
  }
}
