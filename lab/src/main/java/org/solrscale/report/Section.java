package org.solrscale.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.RunDir;
import org.solrscale.spec.CapacityTarget;
import org.solrscale.spec.SolrscaleException;

/**
 * One section of the report: its anchor, heading and navigation label, whether this run has
 * anything for it, and what it writes. Adding a section is one subclass and one line in {@link
 * Report#sections()}. A section writes into the page it is given: HTML, notes and figures.
 */
abstract class Section {
  private Page page;

  /** The run, for the section's body. */
  protected RunModel model;

  /** The page's HTML, for the section's body to append to. */
  protected StringBuilder html;

  /** The anchor (id="...") of the section. */
  abstract String id();

  /** Its heading. */
  abstract String title();

  /** Its link in the navigation, or null for none. */
  abstract String nav();

  /** Whether this run has anything for the section (by default every run has). */
  boolean shown() {
    return true;
  }

  /** Writes the section's body. */
  abstract void write();

  /**
   * Binds the section to a page (its run and HTML); call before {@link #shown} and {@link #write}.
   */
  final Section on(Page p) {
    this.page = p;
    this.model = p.model();
    this.html = p.html();
    return this;
  }

  /** The target a recommendation is asked for (report --target), or null. */
  CapacityTarget target() {
    return page.target();
  }

  void note(String text) {
    page.note(text);
  }

  void figure(String title, String caption, XYChart chart) {
    page.figure(title, caption, chart);
  }

  List<Page.Overlay> overlays() {
    return page.overlays();
  }

  /** Faults recorded beside a step (faults.json), as shaded intervals. */
  static List<Charts.Shade> faultShades(Path stepDir) {
    List<Charts.Shade> out = new ArrayList<>();
    java.util.Map<String, Integer> seen = new java.util.HashMap<>();
    for (FaultRecord f : faults(stepDir)) {
      if (f.injected()) {
        // a chart's series need distinct names: two faults of one kind on the same nodes (two
        // slow links from one data centre) get a number
        String label = f.fault() + " " + String.join(",", f.nodes());
        int n = seen.merge(label, 1, Integer::sum);
        out.add(new Charts.Shade(n == 1 ? label : label + " (" + n + ")", f.startS(), f.until()));
      }
    }
    return out;
  }

  static List<FaultRecord> faults(Path stepDir) {
    if (stepDir == null) {
      return List.of(); // a step that wrote no folder
    }
    Path file = stepDir.resolve("faults.json");
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    try {
      return List.of(RunDir.JSON.readValue(file.toFile(), FaultRecord[].class));
    } catch (IOException e) {
      throw SolrscaleException.usage(file + ": not a faults file: " + e.getMessage());
    }
  }
}
