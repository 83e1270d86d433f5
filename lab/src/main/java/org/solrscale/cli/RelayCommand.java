package org.solrscale.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.solrscale.distribute.RelayEnd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One end of an index distribution, started by `distribute` on a host (over SSH) or here: a target
 * that receives and forwards ({@code relay receive}), the source that reads the leader's pinned
 * files ({@code relay send}), or the removal of a failed target's seed ({@code relay remove}). Each
 * line it prints is one JSON event, for the coordinator to read ({@link RelayEnd}).
 */
@Command(
    name = "relay",
    hidden = true,
    description = "Internal: one end of `distribute`; prints JSON events, one per line.",
    subcommands = {RelayCommand.Receive.class, RelayCommand.Send.class, RelayCommand.Remove.class})
final class RelayCommand {
  @Command(name = "receive", description = "Receive into a directory, forward to the route below.")
  static final class Receive implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "The directory files go into.")
    Path dir;

    @Option(names = "--bind", required = true, description = "ADDRESS to listen on (any port).")
    String bind;

    @Option(
        names = "--wait-seconds",
        defaultValue = "120",
        description = "How long to wait for an upstream.")
    long waitSeconds;

    @Option(names = "--corrupt-chunk", description = "Tests: damage chunk FILE_INDEX:OFFSET once.")
    String corrupt;

    @Option(names = "--max-bytes-per-second", defaultValue = "0", description = "Cap per target.")
    long cap;

    @Option(names = "--have", description = "A live index whose files need not be sent again.")
    Path have;

    @Override
    public Integer call() throws Exception {
      return new RelayEnd(System.out).receive(dir, bind, waitSeconds, corrupt, cap, have);
    }
  }

  @Command(name = "send", description = "Send pinned files along a route.")
  static final class Send implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "The leader's index directory.")
    Path dir;

    @Option(names = "--files", required = true, description = "The files, as JSON.")
    String files;

    @Option(names = "--route", required = true, description = "The route, as JSON.")
    String route;

    @Option(names = "--chunk", defaultValue = "1048576", description = "Chunk size in bytes.")
    int chunk;

    @Option(names = "--max-bytes-per-second", defaultValue = "0", description = "Cap per target.")
    long cap;

    @Override
    public Integer call() throws Exception {
      return new RelayEnd(System.out).send(dir, files, route, chunk, cap);
    }
  }

  @Command(
      name = "remove",
      description = "Remove a failed target's seed directory (one under a 'distribute' directory).")
  static final class Remove implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "The seed directory.")
    Path dir;

    @Override
    public Integer call() {
      return new RelayEnd(System.out).remove(dir);
    }
  }
}
