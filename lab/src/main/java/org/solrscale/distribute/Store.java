package org.solrscale.distribute;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The files of one distribution at one place (the source's index, or a target's seed directory):
 * how much of each is here and verified, so that what arrives is forwarded from here while it
 * grows. A file being received is {@code NAME.part}, written only with verified chunks, in order,
 * and renamed to its name once its footer checksum is the leader's; a file already here with the
 * leader's length and checksum is not received again (a distribution after more indexing sends only
 * the new segment files).
 */
final class Store implements AutoCloseable {
  static final String PART = ".part";

  private final Path dir;
  private final List<IndexFile> files;
  private final int chunk;
  private final long[] available;
  private final boolean[] had;
  private final FileChannel[] channels;
  private String failure;

  /**
   * The store in {@code dir}: a file there with the leader's length and checksum is complete, a
   * {@code .part} of it counts in whole chunks (a relay taking over from a failed one resumes
   * there), anything else starts at 0. {@code source}: the files are all there, read only.
   */
  Store(Path dir, List<IndexFile> files, int chunk, boolean source) throws IOException {
    this.dir = dir;
    this.files = List.copyOf(files);
    this.chunk = chunk;
    available = new long[files.size()];
    had = new boolean[files.size()];
    channels = new FileChannel[files.size()];
    Files.createDirectories(dir);
    for (int i = 0; i < files.size(); i++) {
      IndexFile f = files.get(i);
      Path done = dir.resolve(f.name());
      if (source || Footer.matches(done, f)) {
        if (source && !Files.isRegularFile(done)) {
          throw new IOException("the source has no " + done);
        }
        available[i] = f.length();
        had[i] = true;
        channels[i] = FileChannel.open(done, StandardOpenOption.READ);
        continue;
      }
      Path part = dir.resolve(f.name() + PART);
      channels[i] =
          FileChannel.open(
              part, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      long whole = Math.min(f.length(), channels[i].size() / chunk * chunk);
      channels[i].truncate(whole);
      available[i] = whole;
      if (whole == f.length()) {
        finish(i);
      }
    }
  }

  List<IndexFile> files() {
    return files;
  }

  int chunk() {
    return chunk;
  }

  /** How much of file {@code i} is here, verified, from its start. */
  synchronized long available(int i) {
    return available[i];
  }

  /** The verified prefix of every file, in manifest order. */
  synchronized long[] availableAll() {
    return available.clone();
  }

  /** Whether file {@code i} was here before this distribution (not received). */
  boolean had(int i) {
    return had[i];
  }

  synchronized boolean complete() {
    for (int i = 0; i < files.size(); i++) {
      if (available[i] < files.get(i).length()) {
        return false;
      }
    }
    return true;
  }

  /** Bytes of all files together. */
  long totalBytes() {
    return files.stream().mapToLong(IndexFile::length).sum();
  }

  /** Bytes of the files that were here before this distribution. */
  long bytesHad() {
    long sum = 0;
    for (int i = 0; i < files.size(); i++) {
      if (had[i]) {
        sum += files.get(i).length();
      }
    }
    return sum;
  }

  /** Bytes here, verified, of all files. */
  synchronized long bytesHere() {
    long sum = 0;
    for (long a : available) {
      sum += a;
    }
    return sum;
  }

  /**
   * Waits until file {@code i} has {@code upTo} bytes here (or the store failed); false when the
   * wait timed out.
   */
  synchronized boolean await(int i, long upTo, long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (available[i] < upTo && failure == null) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
    return true;
  }

  /**
   * The chunk of file {@code i} at {@code offset} as stored (the last one of a file is shorter).
   */
  byte[] read(int i, long offset) throws IOException {
    int len = (int) Math.min(chunk, files.get(i).length() - offset);
    ByteBuffer b = ByteBuffer.allocate(len);
    while (b.hasRemaining()) {
      if (channels[i].read(b, offset + b.position()) < 0) {
        throw new IOException(files.get(i).name() + " ended at " + (offset + b.position()));
      }
    }
    return b.array();
  }

  /**
   * Writes a verified chunk at the end of what file {@code i} has; a chunk elsewhere is refused
   * (the sender rewinds). The file is renamed to its name once complete and its checksum is the
   * leader's.
   */
  void append(int i, long offset, byte[] data) throws IOException {
    synchronized (this) {
      if (offset != available[i]) {
        throw new IOException(
            "chunk of " + files.get(i).name() + " at " + offset + ", expected " + available[i]);
      }
    }
    ByteBuffer b = ByteBuffer.wrap(data);
    while (b.hasRemaining()) {
      channels[i].write(b, offset + b.position());
    }
    synchronized (this) {
      available[i] = offset + data.length;
      if (available[i] == files.get(i).length()) {
        finish(i);
      }
      notifyAll();
    }
  }

  /** A complete file: its bytes checked against the leader's checksum, then given its name. */
  private void finish(int i) throws IOException {
    IndexFile f = files.get(i);
    channels[i].force(false);
    Path part = dir.resolve(f.name() + PART);
    long crc = Footer.compute(part);
    if (crc != f.checksum() || Footer.stored(part) != f.checksum()) {
      throw new IOException(
          f.name()
              + " arrived whole but its checksum is "
              + crc
              + ", not the leader's "
              + f.checksum());
    }
    // the open channel keeps reading the same file under its new name
    Files.move(part, dir.resolve(f.name()), StandardCopyOption.ATOMIC_MOVE);
  }

  /** Marks the store failed: every wait ends with {@code why}. */
  synchronized void fail(String why) {
    failure = why;
    notifyAll();
  }

  /** SHA-256 of a chunk: what is sent with it and checked before it is written or forwarded. */
  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  @Override
  public void close() throws IOException {
    for (FileChannel c : channels) {
      if (c != null) {
        c.close();
      }
    }
  }
}
