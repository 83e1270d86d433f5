package org.solrscale.it;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Class-data archives on for one test class's nodes (they are off by default, docs/clusters.md),
 * and off again after it: registered before the class's cluster, so that its up uses them, and with
 * no static state that another class touching this one's helpers could set or clear.
 */
final class ClassArchivesOn implements BeforeAllCallback, AfterAllCallback {
  static final String PROPERTY = "solrscale.class.archive";

  @Override
  public void beforeAll(ExtensionContext context) {
    System.setProperty(PROPERTY, "on");
  }

  @Override
  public void afterAll(ExtensionContext context) {
    System.clearProperty(PROPERTY);
  }
}
