package org.solrscale.spec;

/** The process exit codes every solrscale command uses. */
public enum ExitCode {
  OK(0),
  /** A checked property failed, or anything else went wrong. */
  FAILED(1),
  /** Bad usage or a bad spec. */
  USAGE(2),
  /** The environment: JDK, ports, runtime, network. */
  ENVIRONMENT(3);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
