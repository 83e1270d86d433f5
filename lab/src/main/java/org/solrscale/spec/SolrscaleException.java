package org.solrscale.spec;

/** An error to show the user as one line, with the exit code it deserves. */
public class SolrscaleException extends RuntimeException {
  private final ExitCode exitCode;

  public SolrscaleException(ExitCode exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public SolrscaleException(ExitCode exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public ExitCode exitCode() {
    return exitCode;
  }

  public static SolrscaleException usage(String message) {
    return new SolrscaleException(ExitCode.USAGE, message);
  }

  public static SolrscaleException environment(String message) {
    return new SolrscaleException(ExitCode.ENVIRONMENT, message);
  }

  public static SolrscaleException failed(String message) {
    return new SolrscaleException(ExitCode.FAILED, message);
  }
}
