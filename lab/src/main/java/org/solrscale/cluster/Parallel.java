package org.solrscale.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.solrscale.spec.SolrscaleException;

/** Runs one task per item at once (nodes, hosts) and returns their results in order. */
public final class Parallel {
  private Parallel() {}

  /** f of every item, all at once; the first failure is thrown as it was. */
  public static <T, R> List<R> map(List<T> items, Function<T, R> f) {
    return run(items, f, false);
  }

  /**
   * f of every item, all at once, each run to its end even when the caller is interrupted
   * meanwhile: for tasks whose result must be recorded whatever happens (a process started on a
   * host is stopped again only if its pid is known). The interrupt is kept for the caller to act on
   * once the results are in; the first failure is thrown as it was.
   */
  public static <T, R> List<R> mapToEnd(List<T> items, Function<T, R> f) {
    return run(items, f, true);
  }

  private static <T, R> List<R> run(List<T> items, Function<T, R> f, boolean toEnd) {
    if (items.isEmpty()) {
      return List.of();
    }
    ExecutorService pool = Executors.newFixedThreadPool(items.size());
    boolean interrupted = false;
    try {
      List<Future<R>> futures = new ArrayList<>();
      for (T item : items) {
        futures.add(pool.submit(() -> f.apply(item)));
      }
      List<R> results = new ArrayList<>();
      RuntimeException first = null;
      for (Future<R> fu : futures) {
        while (true) {
          try {
            results.add(fu.get());
            break;
          } catch (ExecutionException e) {
            RuntimeException re =
                e.getCause() instanceof RuntimeException r
                    ? r
                    : new IllegalStateException(e.getCause());
            if (!toEnd) {
              throw re;
            }
            first = first == null ? re : first;
            results.add(null);
            break;
          } catch (InterruptedException e) {
            interrupted = true;
            if (!toEnd) {
              throw SolrscaleException.failed("interrupted");
            }
            // waited for again: the task is left to finish
          }
        }
      }
      if (first != null) {
        throw first;
      }
      return results;
    } finally {
      if (toEnd) {
        pool.shutdown();
      } else {
        pool.shutdownNow();
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
