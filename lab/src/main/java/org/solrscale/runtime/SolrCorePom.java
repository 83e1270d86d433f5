package org.solrscale.runtime;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.solrscale.spec.SolrscaleException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The dependencies solr-core's POM declares, read as written (no inheritance: Solr's published POMs
 * are flat). Used to tell whether Maven can use the POM as it is, and otherwise to declare them
 * directly.
 */
record SolrCorePom(List<Dependency> dependencies) {

  record Exclusion(String group, String artifact) {}

  record Dependency(
      String group,
      String artifact,
      String version,
      String scope,
      boolean optional,
      List<Exclusion> exclusions) {

    /** What a consumer gets at run time: compile or runtime scope, not optional. */
    boolean atRuntime() {
      return !optional && (scope == null || scope.equals("compile") || scope.equals("runtime"));
    }
  }

  /** Whether every dependency has its version (else Maven calls the POM invalid). */
  boolean complete() {
    return versionless().isEmpty();
  }

  List<String> versionless() {
    return dependencies.stream()
        .filter(d -> d.version() == null)
        .map(d -> d.group() + ":" + d.artifact())
        .toList();
  }

  List<Dependency> runtimeDependencies() {
    return dependencies.stream().filter(Dependency::atRuntime).toList();
  }

  static SolrCorePom read(Path pom) {
    Document doc;
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      doc = f.newDocumentBuilder().parse(pom.toFile());
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw SolrscaleException.environment("cannot read " + pom + ": " + e.getMessage());
    }
    List<Dependency> deps = new ArrayList<>();
    Element dependencies = child(doc.getDocumentElement(), "dependencies");
    if (dependencies != null) {
      for (Element d : children(dependencies, "dependency")) {
        List<Exclusion> exclusions = new ArrayList<>();
        Element ex = child(d, "exclusions");
        if (ex != null) {
          for (Element e : children(ex, "exclusion")) {
            exclusions.add(new Exclusion(text(e, "groupId"), text(e, "artifactId")));
          }
        }
        deps.add(
            new Dependency(
                text(d, "groupId"),
                text(d, "artifactId"),
                text(d, "version"),
                text(d, "scope"),
                "true".equals(text(d, "optional")),
                List.copyOf(exclusions)));
      }
    }
    return new SolrCorePom(List.copyOf(deps));
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      if (n instanceof Element e
          && name.equals(e.getLocalName() != null ? e.getLocalName() : e.getTagName())) {
        found.add(e);
      }
    }
    return found;
  }

  private static String text(Element parent, String name) {
    Element e = child(parent, name);
    if (e == null) {
      return null;
    }
    String t = e.getTextContent().trim();
    return t.isEmpty() ? null : t;
  }
}
