package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/** The ZooKeeper ensemble: how many servers and their timing settings (ZooKeeper's own names). */
public record ZkSpec(
    @JsonProperty("servers") Integer servers,
    @JsonProperty("tick_time") Integer tickTime,
    @JsonProperty("init_limit") Integer initLimit,
    @JsonProperty("sync_limit") Integer syncLimit,
    @JsonProperty("heap") String heap) {

  public static final int DEFAULT_TICK_TIME = 2000;
  public static final int DEFAULT_INIT_LIMIT = 10;
  public static final int DEFAULT_SYNC_LIMIT = 5;

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ZkSpec {
    servers = servers == null ? 1 : servers;
    tickTime = tickTime == null ? DEFAULT_TICK_TIME : tickTime;
    initLimit = initLimit == null ? DEFAULT_INIT_LIMIT : initLimit;
    syncLimit = syncLimit == null ? DEFAULT_SYNC_LIMIT : syncLimit;
    heap = heap == null ? "256m" : heap;
  }

  /** An ensemble of this many servers with default settings. */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static ZkSpec ofServers(int servers) {
    return new ZkSpec(servers, null, null, null, null);
  }
}
