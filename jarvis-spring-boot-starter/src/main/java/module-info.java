/**
 * The Spring Boot starter: auto-configures a Jarvis host (servlet binding, JDBC store) from {@code
 * jarvis.host.*} properties.
 */
// Spring's jars carry Automatic-Module-Names (spring.core, spring.boot, ...) but no descriptors.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.jarvis.spring.boot {
  requires transitive dev.jarvis.host.servlet;
  requires transitive dev.jarvis.store.jdbc;
  // The review console's servlet (jarvis.host.console.enabled).
  requires transitive dev.jarvis.console;
  // The auto-configuration's public @Bean methods take and answer Spring's types.
  requires transitive spring.beans;
  requires transitive spring.boot;
  requires transitive spring.boot.autoconfigure;
  requires transitive spring.context;
  requires transitive spring.core;
  requires org.slf4j;
  // The embedded store's pool is configured here.
  requires com.zaxxer.hikari;
  // Optional integrations: each configuration is conditional on its classes being present.
  requires static transitive spring.boot.sql;
  requires static transitive spring.boot.health;
  requires static transitive spring.web;
  requires static transitive micrometer.core;
  requires static transitive spring.security.core;
  requires static transitive spring.security.web;
  requires static transitive spring.security.oauth2.core;

  exports dev.jarvis.spring.boot;

  // Spring creates, binds and proxies the auto-configuration and properties classes by reflection.
  opens dev.jarvis.spring.boot;
}
