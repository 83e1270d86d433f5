package org.solrscale.distribute;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * The footer every Lucene index file ends with (CodecUtil): a magic number, an algorithm id (0) and
 * the CRC32 of everything before the checksum itself, as a long. Read and computed here with the
 * JDK's CRC32, so a copy is checked exactly as Lucene and IndexFetcher check it.
 */
public final class Footer {
  /** Bytes of the footer: magic (4), algorithm id (4), checksum (8). */
  public static final int LENGTH = 16;

  /** CodecUtil.FOOTER_MAGIC: the bitwise complement of CODEC_MAGIC (0x3fd76c17). */
  static final int MAGIC = ~0x3fd76c17;

  private Footer() {}

  /** The checksum a file's footer records, or IOException when it has no Lucene footer. */
  public static long stored(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size < LENGTH) {
        throw new IOException(file.getFileName() + " is too short for a Lucene footer");
      }
      ByteBuffer b = ByteBuffer.allocate(LENGTH);
      while (b.hasRemaining()) {
        if (ch.read(b, size - LENGTH + b.position()) < 0) {
          throw new IOException("cannot read the footer of " + file.getFileName());
        }
      }
      b.flip();
      if (b.getInt() != MAGIC || b.getInt() != 0) {
        throw new IOException(file.getFileName() + " has no Lucene footer");
      }
      return b.getLong();
    }
  }

  /** The CRC32 of the file but its last 8 bytes: what its footer must record. */
  public static long compute(Path file) throws IOException {
    long size = Files.size(file);
    CRC32 crc = new CRC32();
    byte[] buf = new byte[1 << 16];
    long left = size - 8;
    try (InputStream in = Files.newInputStream(file)) {
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          throw new IOException(file.getFileName() + " ended early");
        }
        crc.update(buf, 0, n);
        left -= n;
      }
    }
    return crc.getValue();
  }

  /** Whether {@code file} is {@code expected}: its length, its footer and its bytes agree. */
  public static boolean matches(Path file, IndexFile expected) {
    try {
      return Files.isRegularFile(file)
          && Files.size(file) == expected.length()
          && stored(file) == expected.checksum()
          && compute(file) == expected.checksum();
    } catch (IOException e) {
      return false;
    }
  }

  /** The file as an {@link IndexFile}: its name, length and the checksum its footer records. */
  public static IndexFile describe(Path file) throws IOException {
    return new IndexFile(file.getFileName().toString(), Files.size(file), stored(file));
  }
}
