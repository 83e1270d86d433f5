package org.solrscale.distribute;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.results.Route;

/**
 * The transfer between relays over real sockets on 127.0.0.1 with planted Lucene-like files: chains
 * and trees give byte-identical copies, a second distribution sends only new files, a damaged chunk
 * is caught and fetched again, and a target that cannot be reached is routed around.
 */
class TransferTest {
  static final int CHUNK = 64 << 10;
  @TempDir Path dir;
  final ExecutorService pool = Executors.newCachedThreadPool();
  final List<Relay> relays = new ArrayList<>();

  @AfterEach
  void stop() throws IOException {
    pool.shutdownNow();
    for (Relay r : relays) {
      r.close();
    }
  }

  /** A file of random bytes ending with a Lucene footer that holds their CRC32. */
  static IndexFile plant(Path file, int bodyBytes, long seed) throws IOException {
    byte[] body = new byte[bodyBytes];
    new Random(seed).nextBytes(body);
    ByteBuffer b = ByteBuffer.allocate(bodyBytes + Footer.LENGTH);
    b.put(body).putInt(Footer.MAGIC).putInt(0);
    CRC32 crc = new CRC32();
    crc.update(b.array(), 0, bodyBytes + 8);
    b.putLong(crc.getValue());
    Files.createDirectories(file.getParent());
    Files.write(file, b.array());
    return Footer.describe(file);
  }

  List<IndexFile> leaderIndex() throws IOException {
    Path idx = dir.resolve("leader");
    List<IndexFile> files = new ArrayList<>();
    files.add(plant(idx.resolve("_0.cfs"), 1_000_000, 1));
    files.add(plant(idx.resolve("_1.cfs"), 300_000, 2));
    files.add(plant(idx.resolve("_1.si"), 100, 3));
    files.add(plant(idx.resolve("segments_2"), CHUNK - Footer.LENGTH, 4)); // exactly one chunk
    return files;
  }

  /** Starts a relay writing into dir/NAME; returns its address and its future result. */
  record Started(String address, Future<Relay.Result> result, Path dir) {}

  Started relay(String name, String corrupt) throws IOException {
    Relay r =
        new Relay(
            dir.resolve(name), new InetSocketAddress("127.0.0.1", 0), Events.NONE, 30_000, corrupt);
    relays.add(r);
    return new Started("127.0.0.1:" + r.port(), pool.submit(r::run), dir.resolve(name));
  }

  static void assertSameFiles(Path copy, List<IndexFile> files, Path leader) throws IOException {
    for (IndexFile f : files) {
      assertThat(copy.resolve(f.name())).hasSameBinaryContentAs(leader.resolve(f.name()));
    }
    try (var s = Files.list(copy)) {
      assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(Store.PART));
    }
  }

  @Test
  void aTargetWithALiveIndexGetsOnlyWhatItLacksAndStillForwardsEverything() throws Exception {
    List<IndexFile> files = leaderIndex();
    Path live = dir.resolve("live");
    Files.createDirectories(live);
    Files.copy(dir.resolve("leader/_0.cfs"), live.resolve("_0.cfs")); // had, and verified
    Files.write(live.resolve("_1.cfs"), new byte[300_000 + Footer.LENGTH]); // same size, not same
    Relay have =
        new Relay(
            dir.resolve("refreshed"),
            new InetSocketAddress("127.0.0.1", 0),
            Events.NONE,
            30_000,
            null,
            0,
            live);
    relays.add(have);
    Started refreshed =
        new Started("127.0.0.1:" + have.port(), pool.submit(have::run), dir.resolve("refreshed"));
    Started below = relay("below", null);
    Route chain = Route.chain(List.of(refreshed.address(), below.address()));
    assertThat(Source.send(dir.resolve("leader"), files, CHUNK, chain, Events.NONE)).isEmpty();
    long total = files.stream().mapToLong(IndexFile::length).sum();
    Relay.Result r = refreshed.result().get(60, TimeUnit.SECONDS);
    assertThat(r.ok()).as(r.error()).isTrue();
    assertThat(r.bytesHad()).isEqualTo(files.get(0).length());
    assertThat(r.bytesReceived()).isEqualTo(total - files.get(0).length());
    assertSameFiles(refreshed.dir(), files, dir.resolve("leader"));
    // the live index is left as it was: the damaged look-alike was replaced by a new file here
    assertThat(live.resolve("_1.cfs")).hasSize(300_000 + Footer.LENGTH);
    assertThat(Files.readAllBytes(live.resolve("_1.cfs"))).containsOnly((byte) 0);
    Relay.Result b = below.result().get(60, TimeUnit.SECONDS);
    assertThat(b.bytesReceived()).isEqualTo(total);
    assertSameFiles(below.dir(), files, dir.resolve("leader"));
  }

  @Test
  void aCapHoldsEachLinkToItsRate() throws Exception {
    List<IndexFile> files = leaderIndex();
    long total = files.stream().mapToLong(IndexFile::length).sum(); // about 1.4 MB
    Started t = relay("capped", null);
    long t0 = System.nanoTime();
    assertThat(
            Source.send(
                dir.resolve("leader"),
                files,
                CHUNK,
                Route.chain(List.of(t.address())),
                Events.NONE,
                2_000_000))
        .isEmpty();
    assertThat(t.result().get(60, TimeUnit.SECONDS).ok()).isTrue();
    double seconds = (System.nanoTime() - t0) / 1e9;
    // at 2 MB/s the last chunk cannot leave before (total - one chunk) / rate
    assertThat(seconds).isGreaterThanOrEqualTo((total - CHUNK) / 2e6);
  }

  @Test
  void aChainOfThreeGetsByteIdenticalCopies() throws Exception {
    List<IndexFile> files = leaderIndex();
    long total = files.stream().mapToLong(IndexFile::length).sum();
    List<Started> targets = List.of(relay("t1", null), relay("t2", null), relay("t3", null));
    Route chain = Route.chain(targets.stream().map(Started::address).toList());
    assertThat(chain.widest()).isEqualTo(1);
    List<String> failed = Source.send(dir.resolve("leader"), files, CHUNK, chain, Events.NONE);
    assertThat(failed).isEmpty();
    for (Started t : targets) {
      Relay.Result r = t.result().get(60, TimeUnit.SECONDS);
      assertThat(r.ok()).as(r.error()).isTrue();
      assertThat(r.bytesReceived()).isEqualTo(total);
      assertThat(r.resentChunks()).isZero();
      assertSameFiles(t.dir(), files, dir.resolve("leader"));
    }
  }

  @Test
  void aTreeServesEveryTargetAndASecondRunSendsOnlyNewFiles() throws Exception {
    List<IndexFile> files = leaderIndex();
    List<Started> first = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      first.add(relay("t" + i, null));
    }
    Route tree = Route.tree(first.stream().map(Started::address).toList(), 2);
    assertThat(tree.widest()).isEqualTo(2);
    assertThat(tree.targets()).hasSize(5);
    assertThat(Source.send(dir.resolve("leader"), files, CHUNK, tree, Events.NONE)).isEmpty();
    for (Started t : first) {
      assertThat(t.result().get(60, TimeUnit.SECONDS).ok()).isTrue();
      assertSameFiles(t.dir(), files, dir.resolve("leader"));
    }
    // more indexing: one new segment; the same targets and one new one
    List<IndexFile> more = new ArrayList<>(files);
    IndexFile added = plant(dir.resolve("leader/_2.cfs"), 200_000, 9);
    more.add(added);
    List<Started> second = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      second.add(relay("t" + i, null));
    }
    assertThat(
            Source.send(
                dir.resolve("leader"),
                more,
                CHUNK,
                Route.chain(second.stream().map(Started::address).toList()),
                Events.NONE))
        .isEmpty();
    for (int i = 0; i < 6; i++) {
      Relay.Result r = second.get(i).result().get(60, TimeUnit.SECONDS);
      assertThat(r.ok()).as(r.error()).isTrue();
      if (i < 5) {
        assertThat(r.bytesReceived()).as("t" + (i + 1)).isEqualTo(added.length());
        assertThat(r.filesHad()).isEqualTo(files.size());
      } else {
        assertThat(r.bytesReceived()).isEqualTo(more.stream().mapToLong(IndexFile::length).sum());
      }
      assertSameFiles(second.get(i).dir(), more, dir.resolve("leader"));
    }
  }

  @Test
  void aDamagedChunkIsCaughtByItsHashAndSentAgain() throws Exception {
    List<IndexFile> files = leaderIndex();
    List<String> resent = new CopyOnWriteArrayList<>();
    Started t1 = relay("t1", null);
    Relay r2 =
        new Relay(
            dir.resolve("t2"),
            new InetSocketAddress("127.0.0.1", 0),
            new Events() {
              @Override
              public void resent(String file, long offset) {
                resent.add(file + "@" + offset);
              }
            },
            30_000,
            "0:" + 2 * CHUNK);
    relays.add(r2);
    Future<Relay.Result> f2 = pool.submit(r2::run);
    Started t3 = relay("t3", null);
    Route chain = Route.chain(List.of(t1.address(), "127.0.0.1:" + r2.port(), t3.address()));
    assertThat(Source.send(dir.resolve("leader"), files, CHUNK, chain, Events.NONE)).isEmpty();
    Relay.Result r = f2.get(60, TimeUnit.SECONDS);
    assertThat(r.ok()).as(r.error()).isTrue();
    assertThat(r.resentChunks()).isEqualTo(1);
    assertThat(resent).containsExactly("_0.cfs@" + 2 * CHUNK);
    assertSameFiles(dir.resolve("t2"), files, dir.resolve("leader"));
    assertThat(t3.result().get(60, TimeUnit.SECONDS).ok()).isTrue();
    assertSameFiles(t3.dir(), files, dir.resolve("leader")); // the damage went no further
  }

  @Test
  void aTargetThatCannotBeReachedIsRoutedAround() throws Exception {
    List<IndexFile> files = leaderIndex();
    int dead;
    try (ServerSocket s = new ServerSocket(0)) {
      dead = s.getLocalPort(); // free again: nothing listens there
    }
    Started t1 = relay("t1", null);
    Started t3 = relay("t3", null);
    List<String> failed = new CopyOnWriteArrayList<>();
    Events events =
        new Events() {
          @Override
          public void childFailed(String child, String why) {
            failed.add(child);
          }
        };
    Route chain = Route.chain(List.of(t1.address(), "127.0.0.1:" + dead, t3.address()));
    assertThat(Source.send(dir.resolve("leader"), files, CHUNK, chain, events)).isEmpty();
    Relay.Result one = t1.result().get(60, TimeUnit.SECONDS);
    assertThat(one.failedTargets()).containsExactly("127.0.0.1:" + dead);
    assertThat(failed).isEmpty(); // the source's own target, t1, did not fail
    Relay.Result three = t3.result().get(60, TimeUnit.SECONDS);
    assertThat(three.ok()).as(three.error()).isTrue();
    assertSameFiles(t3.dir(), files, dir.resolve("leader"));
  }
}
