package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.NodeOps.NodeOp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** `solrscale node stop|start|kill|pause|resume|restart ID`: one process at a time. */
@Command(
    name = "node",
    description = "Stop, start, kill, pause, resume or restart one node.",
    subcommands = {
      NodeCommand.Stop.class, NodeCommand.Start.class, NodeCommand.Kill.class,
      NodeCommand.Pause.class, NodeCommand.Resume.class, NodeCommand.Restart.class
    })
final class NodeCommand {

  abstract static class Op implements Callable<Integer> {
    @Mixin ClusterOptions cluster;

    @Parameters(
        index = "0",
        paramLabel = "ID",
        description = "Node id, e.g. solr2 or zk1 (see status).")
    String id;

    abstract NodeOp op();

    @Override
    public Integer call() {
      System.out.println(
          new Cluster(Terminal.home(), cluster.name, Terminal.progress())
              .nodes()
              .node(op(), id, cluster.timeout));
      return 0;
    }
  }

  @Command(name = "stop", description = "Graceful stop (SIGTERM, then SIGKILL after 60 s).")
  static final class Stop extends Op {
    NodeOp op() {
      return NodeOp.STOP;
    }
  }

  @Command(name = "start", description = "Start a stopped or dead node and wait until it serves.")
  static final class Start extends Op {
    NodeOp op() {
      return NodeOp.START;
    }
  }

  @Command(name = "kill", description = "SIGKILL: the node dies at once, as in a crash.")
  static final class Kill extends Op {
    NodeOp op() {
      return NodeOp.KILL;
    }
  }

  @Command(name = "pause", description = "SIGSTOP: the node freezes, as in a long GC pause.")
  static final class Pause extends Op {
    NodeOp op() {
      return NodeOp.PAUSE;
    }
  }

  @Command(name = "resume", description = "SIGCONT: a paused node goes on.")
  static final class Resume extends Op {
    NodeOp op() {
      return NodeOp.RESUME;
    }
  }

  @Command(name = "restart", description = "Graceful stop, then start and wait until it serves.")
  static final class Restart extends Op {
    NodeOp op() {
      return NodeOp.RESTART;
    }
  }
}
