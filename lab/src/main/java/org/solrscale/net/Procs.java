package org.solrscale.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What /proc says of a process: its command line, program and parent. */
final class Procs {
  private Procs() {}

  /** The command line with spaces for its NULs, or "" when the process is gone. */
  static String cmdline(long pid) {
    try {
      byte[] b = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(b, StandardCharsets.UTF_8).replace('\0', ' ').strip();
    } catch (IOException e) {
      return "";
    }
  }

  /** The program it runs, or "" when the process is gone. */
  static String exe(long pid) {
    try {
      return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe")).toString();
    } catch (IOException | UnsupportedOperationException e) {
      return "";
    }
  }

  /** Its parent's pid, or 0 when the process is gone. */
  static long ppid(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'
      String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(rest[1]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
