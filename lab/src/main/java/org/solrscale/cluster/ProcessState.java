package org.solrscale.cluster;

/** What the operating system says about a recorded pid. */
public enum ProcessState {
  RUNNING("running"),
  PAUSED("paused"),
  DEAD("dead"),
  STOPPED("stopped"),
  /** Its host could not be asked (status says why, in one line, and fails). */
  UNKNOWN("unknown");

  private final String label;

  ProcessState(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean alive() {
    return this == RUNNING || this == PAUSED;
  }
}
