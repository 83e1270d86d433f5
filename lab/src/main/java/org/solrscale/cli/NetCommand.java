package org.solrscale.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.solrscale.net.LabNet;
import org.solrscale.net.NetHost;
import org.solrscale.net.NetLink;
import org.solrscale.net.NetState;
import org.solrscale.net.NetStatus;
import org.solrscale.net.SshConfig;
import org.solrscale.runtime.SolrscaleHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `solrscale net up|status|down`: lab networks, namespaces on this machine acting as hosts. */
@Command(
    name = "net",
    description =
        "A lab network: hosts on this machine (network namespaces on a bridge, each with "
            + "its own address and sshd, links optionally capped), reachable by name with "
            + "ssh -F $SOLRSCALE_HOME/ssh/config. Needs root.",
    subcommands = {NetCommand.Up.class, NetCommand.Status.class, NetCommand.Down.class})
final class NetCommand {

  @Command(
      name = "up",
      description =
          "Make a lab network of N hosts NET-h1..NET-hN and wait until each lets ssh in; "
              + "a net of that name and size that is up already stays as it is.")
  static final class Up implements Callable<Integer> {
    @Option(
        names = "--name",
        defaultValue = "lab",
        description =
            "Network name: 1 to 8 lowercase letters or digits (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(
        names = "--hosts",
        required = true,
        paramLabel = "N",
        description = "Number of hosts, 1 to 50.")
    int hosts;

    @Option(
        names = "--bandwidth",
        paramLabel = "RATE",
        description = "Cap each host's link both ways, e.g. 100mbit or 1gbit (default: none).")
    String bandwidth;

    @Option(
        names = "--cpus",
        paramLabel = "CORES",
        description = "Each host's CPU share, e.g. 0.5 or 2 (a cgroup quota; default: all).")
    Double cpus;

    @Option(
        names = "--cores",
        paramLabel = "N",
        description =
            "Each host's own N cores of this machine's, given round robin (a cpuset; default: all).")
    Integer cores;

    @Option(
        names = "--memory",
        paramLabel = "SIZE",
        description =
            "Each host's memory, page cache included, e.g. 2g (a cgroup limit; default: all).")
    String memory;

    @Option(
        names = "--label",
        paramLabel = "HOSTS:KEY=VALUE",
        description = "Label hosts, for --link: e.g. lab-h1,lab-h2:dc=east (repeatable).")
    List<String> labels = new ArrayList<>();

    @Option(
        names = "--link",
        paramLabel = "A<->B:PROFILE",
        description =
            "A permanent slow link between two groups of hosts (host names or labels), e.g."
                + " 'dc=east<->dc=west:40ms±5ms,0.1%%,100mbit': a one-way delay with optional"
                + " jitter, a loss and a rate each way (repeatable; 'none' removes them; see"
                + " docs/hosts.md).")
    List<String> links = new ArrayList<>();

    @Option(
        names = "--bastion",
        paramLabel = "HOST",
        description =
            "Reach every other host through this one (ProxyJump), as a fleet behind a jump host:"
                + " its sshd then sees every connection's set-up ('none': directly, the default).")
    String bastion;

    @Option(
        names = "--max-startups",
        paramLabel = "SPEC",
        description =
            "The hosts' sshd MaxStartups, e.g. 10:30:100 (sshd's default; 'none' restores it).")
    String maxStartups;

    @Override
    public Integer call() {
      SolrscaleHome home = Terminal.home();
      if (maxStartups != null && !maxStartups.equals("none")) {
        LabNet.checkMaxStartups(maxStartups); // before anything is made
      }
      Optional<NetState> before = LabNet.find(home, name);
      NetState net =
          LabNet.up(
              home,
              name,
              hosts,
              bandwidth,
              cpus,
              cores,
              memory,
              labels,
              links,
              Terminal.progress());
      if (bastion != null || maxStartups != null) {
        net = LabNet.sshd(home, name, bastion, maxStartups, Terminal.progress());
      }
      boolean wasUp = before.isPresent() && before.get().equals(net);
      System.out.println(
          "lab network "
              + net.name()
              + (wasUp ? " was up already" : " is up")
              + " ("
              + net.subnet()
              + " on bridge "
              + net.bridge()
              + (net.bandwidth() == null ? "" : ", links capped at " + net.bandwidth())
              + (net.cpus() == null ? "" : ", " + net.cpus() + " CPUs each")
              + (net.cores() == null
                  ? ""
                  : ", " + net.cores() + (net.cores() == 1 ? " core" : " cores") + " each")
              + (net.memory() == null ? "" : ", " + net.memory() + " of memory each")
              + ")");
      for (NetHost h : net.hosts()) {
        System.out.println(
            h.name()
                + " "
                + h.address()
                + " (namespace "
                + h.namespace()
                + ", sshd pid "
                + h.sshdPid()
                + ")");
      }
      for (NetLink l : net.links()) {
        System.out.println(
            "link "
                + String.join(",", l.hosts())
                + " <-> "
                + String.join(",", l.peers())
                + ": "
                + l.slowness());
      }
      System.out.println(hint(home, net));
      return 0;
    }
  }

  @Command(
      name = "status",
      description =
          "Show each lab network's hosts: address, namespace, sshd and link cap, as they are now.")
  static final class Status implements Callable<Integer> {
    @Option(names = "--name", description = "This network only (default: all).")
    String name;

    @Option(names = "--json", description = "Print JSON (a list of networks).")
    boolean json;

    @Override
    public Integer call() {
      SolrscaleHome home = Terminal.home();
      List<NetState> nets = name != null ? List.of(LabNet.require(home, name)) : LabNet.all(home);
      List<NetStatus> statuses = nets.stream().map(n -> LabNet.status(home, n)).toList();
      if (json) {
        Terminal.printJson(statuses);
        return 0;
      }
      if (statuses.isEmpty()) {
        System.out.println("no lab network is up; start one with: solrscale net up --hosts 3");
        return 0;
      }
      for (int i = 0; i < statuses.size(); i++) {
        NetStatus s = statuses.get(i);
        if (i > 0) {
          System.out.println();
        }
        System.out.println(
            "lab network "
                + s.name()
                + ": "
                + s.subnet()
                + " on bridge "
                + s.bridge()
                + (s.bridgePresent() ? "" : " (gone)")
                + (s.healthy() ? "" : "; take it down and up again to repair it"));
        Table t = new Table("HOST", "ADDRESS", "NAMESPACE", "SSHD", "BANDWIDTH", "LIMITS");
        for (NetStatus.HostStatus h : s.hosts()) {
          t.row(
              h.name(),
              h.address(),
              h.namespace() + (h.namespacePresent() ? "" : " (gone)"),
              "pid " + h.sshdPid() + (h.sshdAlive() ? "" : " (not running)"),
              h.bandwidth() == null ? "-" : h.bandwidth(),
              h.limits() == null ? "-" : h.limits());
        }
        System.out.print(t.render());
        System.out.println(hint(home, nets.get(i)));
      }
      return 0;
    }
  }

  @Command(
      name = "down",
      description =
          "Take a lab network down: its sshd processes, namespaces, links, bridge and files. "
              + "Refuses while anything else runs on its hosts.")
  static final class Down implements Callable<Integer> {
    @Option(
        names = "--name",
        defaultValue = "lab",
        description = "Network name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(
        names = "--if-exists",
        description = "A network that is not there is no error: say so and exit 0.")
    boolean ifExists;

    @Override
    public Integer call() {
      SolrscaleHome home = Terminal.home();
      Optional<NetState> net = LabNet.find(home, name);
      if (ifExists && net.isEmpty()) {
        System.out.println("no lab network named '" + name + "' here: nothing to take down");
        return 0;
      }
      LabNet.down(home, name, Terminal.progress());
      System.out.println(
          "lab network "
              + name
              + " is down ("
              + net.map(n -> n.hosts().size()).orElse(0)
              + " host(s) removed)");
      return 0;
    }
  }

  private static String hint(SolrscaleHome home, NetState net) {
    return "reach them with: ssh -F " + SshConfig.file(home) + " " + net.hosts().get(0).name();
  }
}
