package org.solrscale.capacity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.Locale;
import java.util.TreeSet;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

/**
 * Gunther's Universal Scalability Law, X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)),
 * fitted to capacities measured at several N by non-linear least squares (Levenberg-Marquardt from
 * the linearised fit N / X = (1 + sigma (N - 1) + kappa N (N - 1)) / lambda), with lambda, sigma
 * and kappa kept at zero or more. A fit needs three distinct N (three parameters); with exactly
 * three it has no residual degree of freedom and says so.
 */
public final class Usl {
  /** Residuals larger than this (root mean square, relative to the values) make a fit too noisy. */
  static final double MAX_RELATIVE_RMS = 0.15;

  private Usl() {}

  /** A fit: its parameters, quality, peak, and (when refused) why not; or the refusal alone. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Fit(
      @JsonProperty("lambda") Double lambda,
      @JsonProperty("sigma") Double sigma,
      @JsonProperty("kappa") Double kappa,
      @JsonProperty("n") double[] n,
      @JsonProperty("measured") double[] measured,
      @JsonProperty("predicted") double[] predicted,
      @JsonProperty("residuals_pct") double[] residualsPct,
      @JsonProperty("r_squared") Double rSquared,
      @JsonProperty("relative_rms") Double relativeRms,
      @JsonProperty("peak_n") Double peakN,
      @JsonProperty("peak_capacity") Double peakCapacity,
      @JsonProperty("note") String note,
      @JsonProperty("refused") String refused) {

    public boolean ok() {
      return refused == null;
    }

    /** The law's capacity at {@code n}. */
    public double at(double n) {
      return capacity(lambda, sigma, kappa, n);
    }
  }

  /** The law's value at n. */
  static double capacity(double lambda, double sigma, double kappa, double n) {
    return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
  }

  /** Fits the law to capacities {@code x} measured at {@code n} (one point per N, or repeats). */
  public static Fit fit(double[] n, double[] x) {
    if (n.length != x.length) {
      throw new IllegalArgumentException("n and x differ in length");
    }
    TreeSet<Double> distinct = new TreeSet<>();
    Arrays.stream(n).forEach(distinct::add);
    if (distinct.size() < 3) {
      return refused(
          n,
          x,
          "a fit of the scalability law needs capacities at 3 or more values of N; there "
              + (distinct.size() == 1 ? "is 1" : "are " + distinct.size()));
    }
    for (int i = 0; i < n.length; i++) {
      if (!(n[i] >= 1) || !(x[i] > 0) || Double.isInfinite(x[i])) {
        return refused(
            n,
            x,
            String.format(
                Locale.ROOT, "no fit: capacity %s at N=%s is not a positive number", x[i], n[i]));
      }
    }
    double[] start = linearised(n, x);
    MultivariateJacobianFunction model =
        p -> {
          double l = p.getEntry(0);
          double s = p.getEntry(1);
          double k = p.getEntry(2);
          RealVector value = new ArrayRealVector(n.length);
          RealMatrix jacobian = new Array2DRowRealMatrix(n.length, 3);
          for (int i = 0; i < n.length; i++) {
            double d = 1 + s * (n[i] - 1) + k * n[i] * (n[i] - 1);
            value.setEntry(i, l * n[i] / d);
            jacobian.setEntry(i, 0, n[i] / d);
            jacobian.setEntry(i, 1, -l * n[i] * (n[i] - 1) / (d * d));
            jacobian.setEntry(i, 2, -l * n[i] * n[i] * (n[i] - 1) / (d * d));
          }
          return new Pair<>(value, jacobian);
        };
    LeastSquaresOptimizer.Optimum o =
        new LevenbergMarquardtOptimizer()
            .optimize(
                new LeastSquaresBuilder()
                    .start(start)
                    .model(model)
                    .target(x)
                    .parameterValidator(
                        p -> {
                          RealVector v = p.copy();
                          for (int i = 0; i < 3; i++) {
                            v.setEntry(i, Math.max(i == 0 ? 1e-12 : 0, v.getEntry(i)));
                          }
                          return v;
                        })
                    .maxEvaluations(10_000)
                    .maxIterations(10_000)
                    .build());
    double lambda = o.getPoint().getEntry(0);
    double sigma = o.getPoint().getEntry(1);
    double kappa = o.getPoint().getEntry(2);
    return describe(n, x, lambda, sigma, kappa, distinct.size());
  }

  /**
   * The fit without the points at the largest N, and its prediction there against what was
   * measured: the check a fit is worth extrapolating from. Null when fewer than 3 other N remain.
   */
  public static Holdout holdout(double[] n, double[] x) {
    double max = Arrays.stream(n).max().orElse(0);
    int keep = (int) Arrays.stream(n).filter(v -> v != max).count();
    double[] kn = new double[keep];
    double[] kx = new double[keep];
    double measured = 0;
    int atMax = 0;
    for (int i = 0, j = 0; i < n.length; i++) {
      if (n[i] == max) {
        measured += x[i];
        atMax++;
      } else {
        kn[j] = n[i];
        kx[j++] = x[i];
      }
    }
    Fit f = fit(kn, kx);
    if (!f.ok()) {
      return new Holdout(max, null, atMax == 0 ? null : measured / atMax, null, f.refused());
    }
    double predicted = f.at(max);
    double m = measured / atMax;
    return new Holdout(max, predicted, m, (predicted - m) / m * 100, null);
  }

  /** A held-out point: the largest N, predicted from the others, against what was measured. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Holdout(
      @JsonProperty("n") double n,
      @JsonProperty("predicted") Double predicted,
      @JsonProperty("measured") Double measured,
      @JsonProperty("error_pct") Double errorPct,
      @JsonProperty("refused") String refused) {}

  /** Start values: least squares of N / X on 1, N - 1 and N (N - 1), each kept at 0 or more. */
  static double[] linearised(double[] n, double[] x) {
    RealMatrix a = new Array2DRowRealMatrix(n.length, 3);
    RealVector y = new ArrayRealVector(n.length);
    for (int i = 0; i < n.length; i++) {
      a.setEntry(i, 0, 1);
      a.setEntry(i, 1, n[i] - 1);
      a.setEntry(i, 2, n[i] * (n[i] - 1));
      y.setEntry(i, n[i] / x[i]);
    }
    RealVector c = new QRDecomposition(a).getSolver().solve(y);
    double inv = c.getEntry(0) > 0 ? c.getEntry(0) : n[0] / x[0];
    return new double[] {
      1 / inv, Math.max(0, c.getEntry(1) / inv), Math.max(0, c.getEntry(2) / inv)
    };
  }

  private static Fit describe(
      double[] n, double[] x, double lambda, double sigma, double kappa, int distinct) {
    double[] predicted = new double[n.length];
    double[] residuals = new double[n.length];
    double mean = Arrays.stream(x).average().orElse(0);
    double ssRes = 0;
    double ssTot = 0;
    double rel = 0;
    for (int i = 0; i < n.length; i++) {
      predicted[i] = capacity(lambda, sigma, kappa, n[i]);
      residuals[i] = (x[i] - predicted[i]) / predicted[i] * 100;
      ssRes += Math.pow(x[i] - predicted[i], 2);
      ssTot += Math.pow(x[i] - mean, 2);
      rel += Math.pow((x[i] - predicted[i]) / x[i], 2);
    }
    double r2 = ssTot == 0 ? 1 : 1 - ssRes / ssTot;
    double rms = Math.sqrt(rel / n.length);
    // a coherency below 1e-9 is none measurable: its "peak" would lie beyond any real cluster
    Double peakN = kappa > 1e-9 && sigma < 1 ? Math.sqrt((1 - sigma) / kappa) : null;
    Double peakX = peakN == null ? null : capacity(lambda, sigma, kappa, peakN);
    String note =
        distinct == 3
            ? "three values of N for three parameters: no degree of freedom is left over, so"
                + " the residuals cannot show whether the law fits"
            : null;
    String refused = null;
    if (distinct > 3 && rms > MAX_RELATIVE_RMS) {
      refused =
          String.format(
              Locale.ROOT,
              "the data do not support a fit: the law misses the measured capacities by %.0f %%"
                  + " (root mean square; at most %.0f %%): too much noise",
              rms * 100,
              MAX_RELATIVE_RMS * 100);
    }
    return new Fit(
        lambda, sigma, kappa, n, x, predicted, residuals, r2, rms, peakN, peakX, note, refused);
  }

  private static Fit refused(double[] n, double[] x, String why) {
    return new Fit(null, null, null, n, x, null, null, null, null, null, null, null, why);
  }
}
