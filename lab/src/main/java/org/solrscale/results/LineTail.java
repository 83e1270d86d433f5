package org.solrscale.results;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Follows a text file while another process appends to it: each {@link #poll} returns the lines
 * completed since the last one; a line still being written waits for the next poll. A file not
 * there yet gives no lines.
 */
public final class LineTail {
  private static final int MAX_READ = 8 << 20;
  private final Path file;
  private long offset;
  private byte[] partial = new byte[0];

  public LineTail(Path file) {
    this.file = file;
  }

  public Path file() {
    return file;
  }

  public List<String> poll() throws IOException {
    byte[] chunk;
    try (InputStream in = Files.newInputStream(file)) {
      in.skipNBytes(offset);
      chunk = in.readNBytes(MAX_READ);
    } catch (NoSuchFileException | EOFException e) {
      return List.of();
    }
    if (chunk.length == 0) {
      return List.of();
    }
    offset += chunk.length;
    byte[] all = new byte[partial.length + chunk.length];
    System.arraycopy(partial, 0, all, 0, partial.length);
    System.arraycopy(chunk, 0, all, partial.length, chunk.length);
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < all.length; i++) {
      if (all[i] == '\n') {
        lines.add(new String(all, start, i - start, StandardCharsets.UTF_8).strip());
        start = i + 1;
      }
    }
    partial = Arrays.copyOfRange(all, start, all.length);
    return lines;
  }
}
