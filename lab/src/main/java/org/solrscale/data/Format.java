package org.solrscale.data;

import java.nio.file.Path;
import java.util.Locale;
import org.solrscale.spec.SolrscaleException;

/** The corpus formats solrscale reads and writes. */
public enum Format {
  /** Solr's XML update format: {@code <add><doc><field name="..">..</field></doc></add>}. */
  XML("xml"),
  /** One JSON object per line. */
  JSONL("jsonl"),
  /** A JSON array of objects. */
  JSON("json"),
  /** Comma-separated values with a header line; multiple values joined by '|'. */
  CSV("csv", "csv"),
  /**
   * CSV with one value per cell, taken as it is ('|' and '\' are plain characters): by name only.
   */
  CSV_PLAIN("csv", "csv-plain");

  private final String extension;
  private final String label;

  Format(String extension) {
    this(extension, extension);
  }

  Format(String extension, String label) {
    this.extension = extension;
    this.label = label;
  }

  /** Whether it is CSV, of either kind. */
  public boolean csv() {
    return this == CSV || this == CSV_PLAIN;
  }

  /**
   * The format to write to a file whose name implies {@code named} when the input is {@code from}:
   * plain CSV stays plain.
   */
  public static Format output(Format named, Format from) {
    return named == CSV && from == CSV_PLAIN ? CSV_PLAIN : named;
  }

  public String extension() {
    return extension;
  }

  /** The format a file name implies (.xml, .jsonl/.ndjson, .json, .csv, each optionally .gz). */
  public static Format of(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    if (name.endsWith(".xml")) {
      return XML;
    }
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return JSONL;
    }
    if (name.endsWith(".json")) {
      return JSON;
    }
    if (name.endsWith(".csv")) {
      return CSV;
    }
    throw SolrscaleException.usage(
        "cannot tell the format of "
            + file
            + " from its name; use .xml, .jsonl, .json or .csv (optionally .gz), or give --format");
  }

  /** The format an output file's name implies; the error names --to, the output's option. */
  public static Format ofOutput(Path file) {
    try {
      return of(file);
    } catch (SolrscaleException e) {
      throw SolrscaleException.usage(
          "cannot tell the output format of "
              + file
              + " from its name; "
              + "use .xml, .jsonl, .json or .csv (optionally .gz), or give --to");
    }
  }

  public static Format parse(String name) {
    for (Format f : values()) {
      if (f.label.equalsIgnoreCase(name) || f.name().equalsIgnoreCase(name)) {
        return f;
      }
    }
    throw SolrscaleException.usage(
        "unknown format '" + name + "'; use xml, jsonl, json, csv or " + "csv-plain");
  }
}
